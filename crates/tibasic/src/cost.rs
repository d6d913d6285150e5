//! The cost model: the emulated time (T-states at 6 MHz; 6,000 T-states are 1 ms) each piece
//! of interpreter work charges, so a program runs at a real TI-82's pace. Every charge is a
//! named constant here and a row of [`TABLE`], with what it covers and the measurement it
//! was fitted to; `cargo xtask calibrate` runs the measured programs (see
//! [`crate::calibration`]) and prints how close the model comes, and `--write` puts the table
//! and the comparison into `docs/tibasic.md`.
//!
//! The measurements are stopwatch timings of whole loops (a TI-82 for the counting program,
//! a TI-83 Plus for the per-command table, a TI-84 Plus SE for the commands the TI-83 Plus
//! table lacks); the charges below split them into parts. Where no measurement exists (label
//! search by distance, the digits of a number) the split is our decision, marked [U].

/// One row of the cost model.
#[derive(Clone, Copy, Debug)]
pub struct Charge {
    pub name: &'static str,
    /// T-states at 6 MHz.
    pub t: u64,
    pub covers: &'static str,
    /// Which calibration programs the figure was fitted to, or [U] when none measures it.
    pub basis: &'static str,
}

/// Reading a statement: the run indicator, the ON-key check, the token dispatch.
pub const STATEMENT: u64 = 18_000;
/// Reading an `End` (the block bookkeeping is charged apart).
pub const END: u64 = 5_800;
/// A number in an expression.
pub const NUM_NODE: u64 = 2_100;
/// A real variable read in an expression (a VAT lookup).
pub const VAR_NODE: u64 = 5_200;
/// A binary operator.
pub const OP_NODE: u64 = 13_000;
/// Any other expression node (`Ans`, a list, a string, `getKey`, `rand`...).
pub const EXPR_NODE: u64 = 0;
/// A prefix function (`int `, `√`, `not(`...) beyond its node.
pub const PREFIX_FN: u64 = 11_000;
/// A postfix operator (`²`, `⁻¹`, `!`...) beyond its node.
pub const POSTFIX_OP: u64 = 11_000;
/// A function call (`max(`, `sum(`, `seq(`...) beyond its node.
pub const CALL_FN: u64 = 11_000;
/// Storing a real into an existing variable.
pub const STORE_REAL: u64 = 4_500;
/// Storing into one element of a list.
pub const STORE_ELEM: u64 = 23_000;
/// Creating or resizing a variable in the VAT.
pub const VAT_CREATE: u64 = 12_000;
/// Reading a whole list.
pub const LIST_READ: u64 = 23_000;
/// Reading one list element (the VAT lookup and the index check).
pub const LIST_ELEM: u64 = 23_000;
/// Updating `Ans` after an expression statement or a store.
pub const ANS_UPDATE: u64 = 0;
/// `End` of a `For(` loop: add the step, store, compare.
pub const FOR_STEP: u64 = 6_200;
/// Scanning one statement while skipping a block (a false `If`-`Then`, a finished loop).
pub const SKIP_LINE: u64 = 600;
/// Starting a label search (`Goto`, `Menu(`).
pub const LABEL_SEARCH: u64 = 17_000;
/// Each program byte the label search reads from the top of the program [U].
pub const LABEL_BYTE: u64 = 60;
/// `getKey`: reading the key buffer.
pub const GETKEY: u64 = 0;
/// `rand`: the two-seed generator.
pub const RAND: u64 = 60_000;
/// A statistics command's fixed part and its part per data point: estimates, not calibrated
/// (no published TI-82 timing of `1-Var Stats` was found) [I].
pub const STAT: u64 = 600_000;
pub const STAT_POINT: u64 = 60_000;
/// Formatting a number for display: fixed part.
pub const NUMBER_FORMAT: u64 = 0;
/// Formatting a number for display: per character produced [U].
pub const NUMBER_DIGIT: u64 = 600;
/// `Output(`: fixed part (cursor placement).
pub const OUTPUT: u64 = 0;
/// A large-font character written to the home screen.
pub const HOME_CHAR: u64 = 7_100;
/// `Disp` of one value: fixed part (line placement).
pub const DISP: u64 = 60_000;
/// Scrolling the home screen up one line.
pub const SCROLL: u64 = 45_000;
/// `ClrHome`.
pub const CLR_HOME: u64 = 45_000;
/// `Text(`: fixed part (pen placement).
pub const TEXT: u64 = 58_000;
/// A small-font glyph drawn by `Text(`.
pub const GLYPH: u64 = 1_000;
/// `Pxl-On(`/`Pxl-Off(`/`Pxl-Change(`.
pub const PXL: u64 = 0;
/// `Pt-On(`/`Pt-Off(`/`Pt-Change(`: the window-to-pixel conversion and the pixel.
pub const PT: u64 = 6_800;
/// `Line(`, `Horizontal`, `Vertical`: fixed part.
pub const LINE: u64 = 0;
/// `Circle(`: fixed part.
pub const CIRCLE: u64 = 6_000;
/// One pixel drawn by a line or circle.
pub const LINE_PIXEL: u64 = 3_300;
/// `ClrDraw`: clearing the graph buffer and redrawing the axes.
pub const CLR_DRAW: u64 = 900_000;
/// `RecallPic`: copying a picture into the graph buffer.
pub const RECALL_PIC: u64 = 230_000;
/// `StorePic`: copying the graph buffer into a picture.
pub const STORE_PIC: u64 = 4_000;

/// What reading statement `s` costs (its own work is charged where it is done).
pub fn statement(s: &crate::ast::Stmt) -> u64 {
    match s {
        crate::ast::Stmt::End => END,
        _ => STATEMENT,
    }
}

/// What evaluating node `e` costs, apart from its children and what its work charges.
pub fn node(e: &crate::ast::Expr) -> u64 {
    use crate::ast::Expr;
    match e {
        Expr::Num(_) => NUM_NODE,
        Expr::Var(_) => VAR_NODE,
        Expr::Binary(..) => OP_NODE,
        _ => EXPR_NODE,
    }
}

macro_rules! row {
    ($name:ident, $covers:expr, $basis:expr) => {
        Charge {
            name: stringify!($name),
            t: $name,
            covers: $covers,
            basis: $basis,
        }
    };
}

/// Every charge, in the order the docs list them.
pub const TABLE: &[Charge] = &[
    row!(
        STATEMENT,
        "each statement but End",
        "EXPR-VAR, IF-THEN-TRUE, WHILE-INC, TEST2013"
    ),
    row!(END, "each End", "FOR-EMPTY, IF-THEN-TRUE"),
    row!(NUM_NODE, "a number", "STORE-SUM, IF-FALSE"),
    row!(VAR_NODE, "a real variable read", "EXPR-VAR"),
    row!(OP_NODE, "a binary operator", "STORE-SUM, WHILE-INC"),
    row!(EXPR_NODE, "any other expression node", "GETKEY, LIST-ELEM"),
    row!(
        PREFIX_FN,
        "a prefix function",
        "PT-ON, HORIZONTAL (the negation)"
    ),
    row!(POSTFIX_OP, "a postfix operator", "[U] as PREFIX_FN"),
    row!(CALL_FN, "a function call", "[U] as PREFIX_FN"),
    row!(STORE_REAL, "store into a real", "STORE-SUM, WHILE-INC"),
    row!(STORE_ELEM, "store into a list element", "[U] as LIST_ELEM"),
    row!(
        VAT_CREATE,
        "create or resize a variable",
        "STOREPIC (StorePic replaces its picture)"
    ),
    row!(LIST_READ, "read a whole list", "[U] as LIST_ELEM"),
    row!(LIST_ELEM, "read one list element", "LIST-ELEM"),
    row!(ANS_UPDATE, "update Ans", "EXPR-VAR"),
    row!(FOR_STEP, "End of a For( loop", "FOR-EMPTY"),
    row!(SKIP_LINE, "each statement skipped", "IF-FALSE"),
    row!(LABEL_SEARCH, "start a label search", "TEST2013"),
    row!(
        LABEL_BYTE,
        "each byte searched for a label",
        "[U] no published figure"
    ),
    row!(GETKEY, "getKey", "GETKEY"),
    row!(RAND, "rand", "[U] about five arithmetic operations"),
    row!(
        NUMBER_FORMAT,
        "format a number: fixed",
        "OUTPUT-NUM, TEXT-NUM"
    ),
    row!(
        NUMBER_DIGIT,
        "format a number: per character",
        "[U] split of NUMBER_FORMAT"
    ),
    row!(OUTPUT, "Output(: fixed", "OUTPUT-TEXT, OUTPUT-NUM"),
    row!(HOME_CHAR, "each home-screen character", "OUTPUT-TEXT"),
    row!(DISP, "Disp of one value: fixed", "DISP-CLRHOME"),
    row!(SCROLL, "scroll the home screen", "[U] as CLR_HOME"),
    row!(CLR_HOME, "ClrHome", "OUTPUT-CLRHOME"),
    row!(TEXT, "Text(: fixed", "TEXT-NUM, TEXT-CLRHOME"),
    row!(GLYPH, "each small-font glyph", "TEXT-CLRHOME"),
    row!(PXL, "Pxl-On( and friends", "PXL-ON"),
    row!(PT, "Pt-On( and friends", "PT-ON"),
    row!(LINE, "Line(/Horizontal/Vertical: fixed", "LINE-2, LINE-16"),
    row!(CIRCLE, "Circle(: fixed", "[U] as LINE plus its pixels"),
    row!(
        LINE_PIXEL,
        "each line or circle pixel",
        "LINE-16, HORIZONTAL, VERTICAL"
    ),
    row!(CLR_DRAW, "ClrDraw", "CLRDRAW"),
    row!(RECALL_PIC, "RecallPic", "RECALLPIC"),
    row!(STORE_PIC, "StorePic (plus VAT_CREATE)", "STOREPIC"),
];
