//! From a program's token bytes to [`Line`]s.
//!
//! Statements end at `:` or a newline outside string literals; a string literal ends at `"`,
//! `→` or the end of the line (spec §5.4). Closing parentheses, braces and brackets may be left
//! out at the end of a statement or before `→`, as on the calculator. Expressions follow the
//! TI-82's EOS order (spec §6.4), which differs from the TI-83's: implied multiplication binds
//! tighter than `*` and `/`, and prefix functions take a whole implied product (`sin 2X`).
//!
//! A statement that does not parse compiles to [`Stmt::SyntaxError`]: like the calculator, the
//! runtime reports it only when (and if) the statement is executed.

use crate::ast::{Expr, Label, Line, Stmt, Target};
use crate::real::Real;
use crate::token::*;

/// Compiles a whole program. Never fails: bad statements become [`Stmt::SyntaxError`].
pub fn compile(program: &[u8]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0usize;
    let mut i = 0usize;
    let mut in_string = false;
    while i < program.len() {
        let b = program[i];
        let len = if is_prefix(b) { 2 } else { 1 };
        if in_string {
            if b == QUOTE || b == STORE {
                in_string = false;
            }
            if b == NEWLINE {
                in_string = false;
                lines.push(parse_line(program, start, i));
                start = i + 1;
            }
        } else if b == QUOTE {
            in_string = true;
        } else if b == COLON || b == NEWLINE {
            lines.push(parse_line(program, start, i));
            start = i + 1;
        }
        i += len;
    }
    if start < program.len() {
        lines.push(parse_line(program, start, program.len()));
    }
    lines
}

fn parse_line(program: &[u8], start: usize, end: usize) -> Line {
    let end = end.min(program.len());
    let mut p = Parser {
        t: &program[start..end],
        pos: 0,
        nesting: 0,
        operators: 0,
        too_deep: false,
    };
    let stmt = match p.statement() {
        Ok(s) => s,
        Err(Syntax) if p.too_deep => Stmt::TooDeep,
        Err(Syntax) => Stmt::SyntaxError,
    };
    Line {
        offset: start as u32,
        stmt,
    }
}

/// Parse failure; the statement becomes `ERR:SYNTAX`.
struct Syntax;

type PResult<T> = Result<T, Syntax>;

struct Parser<'a> {
    t: &'a [u8],
    pos: usize,
    /// Open parentheses, functions and prefix operators around the current position.
    nesting: u32,
    /// Operator nodes built for this statement (each can add one level to the tree).
    operators: u32,
    /// A limit below was passed: the statement becomes [`Stmt::TooDeep`] (`ERR:MEMORY`).
    too_deep: bool,
}

/// How deeply parentheses, lists, function calls and prefix operators may nest in one
/// statement. The TI-82 keeps pending operators and operands on stacks in free RAM (spec
/// §7.1) and gives `ERR:MEMORY` when they run out; its exact limit depends on free memory and
/// is unknown, so this runtime uses a fixed one far above what real programs need.
pub const MAX_NESTING: u32 = 64;

/// How many operators one statement may hold. Every operator can add a level to the compiled
/// tree, which is evaluated and dropped recursively; this bounds that depth (with
/// [`MAX_NESTING`]) so no program can overflow the host's stack.
pub const MAX_OPERATORS: u32 = 400;

/// Binary operators by EOS level, lowest priority first (spec §6.4): `or`/`xor`, `and`,
/// relations, `+ -`, `* /`, `nPr nCr`.
const BINARY_LEVELS: [&[u8]; 6] = [
    &[OR, XOR],
    &[AND],
    &[EQ, LT, GT, LE, GE, NE],
    &[PLUS, MINUS],
    &[TIMES, DIVIDE],
    &[NPR, NCR],
];

fn is_prefix_function(b: u8) -> bool {
    matches!(
        b,
        NEGATE | INT | ABS | DET | IDENTITY | DIM | SUM | PROD | NOT | IPART | FPART
    ) || matches!(b, SQRT | CBRT | LN | EXP | LOG | TEN_POW)
        || (SIN..=TANH_INV).contains(&b)
}

fn is_call_function(b: u8) -> bool {
    matches!(
        b,
        ROUND | PXL_TEST | AUGMENT | MAX | MIN | MEDIAN | MEAN | SEQ
    ) || matches!(b, 0x15..=0x18 | 0x1B..=0x1E | 0x20 | 0x22 | 0x24 | 0x25 | 0x27 | 0x28)
}

fn is_label_char(b: u8) -> bool {
    (LETTER_A..=THETA).contains(&b) || (DIGIT_0..=DIGIT_9).contains(&b)
}

impl<'a> Parser<'a> {
    /// One level deeper: fails past [`MAX_NESTING`]. Pair with [`Parser::leave`].
    fn enter(&mut self) -> PResult<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            self.too_deep = true;
            return Err(Syntax);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// One more operator node: fails past [`MAX_OPERATORS`].
    fn operator(&mut self) -> PResult<()> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            self.too_deep = true;
            return Err(Syntax);
        }
        Ok(())
    }

    fn peek(&self) -> Option<u8> {
        self.t.get(self.pos).copied()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.t.len()
    }

    fn bump(&mut self) -> u8 {
        let b = self.t.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// A closing token that may be omitted at the end of the statement or before `→`.
    fn close(&mut self, b: u8) -> PResult<()> {
        if self.eat(b) || self.at_end() || self.peek() == Some(STORE) {
            Ok(())
        } else {
            Err(Syntax)
        }
    }

    fn expect(&mut self, b: u8) -> PResult<()> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(Syntax)
        }
    }

    fn finish<T>(&self, v: T) -> PResult<T> {
        if self.at_end() {
            Ok(v)
        } else {
            Err(Syntax)
        }
    }

    // ------------------------------------------------------------------ statements

    fn statement(&mut self) -> PResult<Stmt> {
        let Some(b) = self.peek() else {
            return Ok(Stmt::Empty);
        };
        match b {
            IF => {
                self.bump();
                let e = self.expr()?;
                self.finish(Stmt::If(e))
            }
            THEN => self.keyword(Stmt::Then),
            ELSE => self.keyword(Stmt::Else),
            END => self.keyword(Stmt::End),
            PAUSE => self.keyword(Stmt::Pause),
            STOP => self.keyword(Stmt::Stop),
            RETURN => self.keyword(Stmt::Return),
            CLR_HOME => self.keyword(Stmt::ClrHome),
            WHILE => {
                self.bump();
                let e = self.expr()?;
                self.finish(Stmt::While(e))
            }
            REPEAT => {
                self.bump();
                let e = self.expr()?;
                self.finish(Stmt::Repeat(e))
            }
            FOR => {
                self.bump();
                let var = self.real_var()?;
                self.expect(COMMA)?;
                let start = self.expr()?;
                self.expect(COMMA)?;
                let end = self.expr()?;
                let step = if self.eat(COMMA) {
                    Some(self.expr()?)
                } else {
                    None
                };
                self.close(RPAREN)?;
                self.finish(Stmt::For {
                    var,
                    start,
                    end,
                    step,
                })
            }
            LBL | GOTO => {
                self.bump();
                let l = self.label()?;
                self.finish(if b == LBL {
                    Stmt::Lbl(l)
                } else {
                    Stmt::Goto(l)
                })
            }
            IS_GT | DS_LT => {
                self.bump();
                let var = self.real_var()?;
                self.expect(COMMA)?;
                let e = self.expr()?;
                self.close(RPAREN)?;
                self.finish(if b == IS_GT {
                    Stmt::IsGt(var, e)
                } else {
                    Stmt::DsLt(var, e)
                })
            }
            PRGM => {
                self.bump();
                let mut name = Vec::new();
                while let Some(c) = self.peek() {
                    if is_label_char(c) && name.len() < 8 {
                        name.push(self.bump());
                    } else {
                        break;
                    }
                }
                if name.is_empty() {
                    return Err(Syntax);
                }
                self.finish(Stmt::Call(name))
            }
            MENU => {
                self.bump();
                let title = self.expr()?;
                let mut items = Vec::new();
                while self.eat(COMMA) {
                    let text = self.expr()?;
                    self.expect(COMMA)?;
                    let label = self.label()?;
                    items.push((text, label));
                }
                self.close(RPAREN)?;
                if items.is_empty() || items.len() > 7 {
                    return Err(Syntax);
                }
                self.finish(Stmt::Menu { title, items })
            }
            DISP => {
                self.bump();
                let mut args = Vec::new();
                if !self.at_end() {
                    args.push(self.expr()?);
                    while self.eat(COMMA) {
                        args.push(self.expr()?);
                    }
                }
                self.finish(Stmt::Disp(args))
            }
            OUTPUT => {
                self.bump();
                let r = self.expr()?;
                self.expect(COMMA)?;
                let c = self.expr()?;
                self.expect(COMMA)?;
                let v = self.expr()?;
                self.close(RPAREN)?;
                self.finish(Stmt::Output(r, c, v))
            }
            INPUT => {
                self.bump();
                if self.at_end() {
                    return Ok(Stmt::Input {
                        prompt: None,
                        target: None,
                    });
                }
                let prompt = if self.peek() == Some(QUOTE) {
                    let p = self.string_literal();
                    self.expect(COMMA)?;
                    Some(p)
                } else {
                    None
                };
                let target = self.target()?;
                self.finish(Stmt::Input {
                    prompt,
                    target: Some(target),
                })
            }
            PROMPT => {
                self.bump();
                let mut targets = vec![self.target()?];
                while self.eat(COMMA) {
                    targets.push(self.target()?);
                }
                self.finish(Stmt::Prompt(targets))
            }
            _ if self.is_command(b) => self.command(),
            _ => {
                let e = self.expr()?;
                if self.eat(STORE) {
                    if self.eat(RAND) {
                        // `n→rand` seeds the generator (crate::rand).
                        return self.finish(Stmt::Command(RAND, 0, vec![e]));
                    }
                    let t = self.target()?;
                    self.finish(Stmt::Store(e, t))
                } else {
                    self.finish(Stmt::Expr(e))
                }
            }
        }
    }

    fn keyword(&mut self, s: Stmt) -> PResult<Stmt> {
        self.bump();
        self.finish(s)
    }

    /// Tokens that start a command statement with comma-separated arguments.
    fn is_command(&self, b: u8) -> bool {
        matches!(
            b,
            CLR_DRAW
                | TEXT
                | LINE
                | VERTICAL
                | HORIZONTAL
                | PT_ON
                | PT_OFF
                | PT_CHANGE
                | PXL_ON
                | PXL_OFF
                | PXL_CHANGE
                | CIRCLE
                | STORE_PIC
                | RECALL_PIC
                | STORE_GDB
                | RECALL_GDB
                | FN_ON
                | FN_OFF
                | DISP_GRAPH
                | DISP_TABLE
                | GET
                | SEND
                | FILL
                | SORT_A
                | SORT_D
                | CLR_LIST
                | PRINT_SCREEN
                | PREFIX_FORMAT
                | RADIAN
                | DEGREE
                | NORMAL
                | SCI
                | ENG
                | FLOAT
                | FIX
                | FUNC
        ) || matches!(b, 0x05 | 0x2E | 0x2F | 0x74..=0x81 | 0x84 | 0x86..=0x92)
            || matches!(b, 0xA4 | 0xA7..=0xA9 | 0xE9..=0xEE | 0xF2..=0xFF)
    }

    fn command(&mut self) -> PResult<Stmt> {
        let b = self.bump();
        let b2 = if is_prefix(b) { self.bump() } else { 0 };
        let mut args = Vec::new();
        if !self.at_end() {
            args.push(self.expr()?);
            while self.eat(COMMA) {
                args.push(self.expr()?);
            }
            // Commands spelled with "(" may close it.
            self.eat(RPAREN);
        }
        self.finish(Stmt::Command(b, b2, args))
    }

    fn real_var(&mut self) -> PResult<u8> {
        match self.peek() {
            Some(b) if (LETTER_A..=THETA).contains(&b) => Ok(self.bump()),
            _ => Err(Syntax),
        }
    }

    fn label(&mut self) -> PResult<Label> {
        let mut l = [0u8; 2];
        for slot in l.iter_mut() {
            match self.peek() {
                Some(c) if is_label_char(c) => *slot = self.bump(),
                _ => break,
            }
        }
        if l[0] == 0 {
            Err(Syntax)
        } else {
            Ok(l)
        }
    }

    /// A place to store: a variable, a list or matrix (or one element), `dim L1`, `dim [A]`, a
    /// window variable. Parsed like the value it names, then turned into a target.
    fn target(&mut self) -> PResult<Target> {
        if self.eat(DIM) {
            return match (self.bump(), self.bump()) {
                (PREFIX_LIST, k) if k <= 5 => Ok(Target::ListDim(k)),
                (PREFIX_MATRIX, k) if k <= 4 => Ok(Target::MatDim(k)),
                _ => Err(Syntax),
            };
        }
        match self.primary()? {
            Expr::Var(v) => Ok(Target::Var(v)),
            Expr::List(k) => Ok(Target::List(k)),
            Expr::ListElem(k, i) => Ok(Target::ListElem(k, *i)),
            Expr::Matrix(k) => Ok(Target::Matrix(k)),
            Expr::MatElem(k, r, c) => Ok(Target::MatElem(k, *r, *c)),
            Expr::Window(k) => Ok(Target::Window(k)),
            Expr::Equation(k) => Ok(Target::Equation(k)),
            _ => Err(Syntax),
        }
    }

    // ------------------------------------------------------------------ expressions

    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let e = self.binary_level(0);
        self.leave();
        Ok(self.conversion(e?))
    }

    /// `►Frac`, `►DMS`, `►Dec` end an expression and apply to all of it (`1/3►Frac`).
    fn conversion(&mut self, e: Expr) -> Expr {
        match self.peek() {
            Some(op @ (TO_DMS | TO_DEC | TO_FRAC)) => {
                self.bump();
                Expr::Postfix(op, Box::new(e))
            }
            _ => e,
        }
    }

    /// The left-to-right binary operator levels (EOS levels 6 to 11), operands from the next
    /// level up and, after the last, from implied multiplication.
    fn binary_level(&mut self, level: usize) -> PResult<Expr> {
        let operand = |p: &mut Self| {
            if level + 1 < BINARY_LEVELS.len() {
                p.binary_level(level + 1)
            } else {
                p.implied_low()
            }
        };
        let mut l = operand(self)?;
        while let Some(op) = self.peek().filter(|b| BINARY_LEVELS[level].contains(b)) {
            self.bump();
            self.operator()?;
            let r = operand(self)?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    /// EOS level 5: implied multiplication whose right operand is a prefix or multi-argument
    /// function (`A sin B`, `2nDeriv(...)`).
    fn implied_low(&mut self) -> PResult<Expr> {
        let mut l = self.prefix()?;
        while let Some(b) = self.peek() {
            if is_prefix_function(b) || is_call_function(b) {
                self.operator()?;
                let r = self.prefix()?;
                l = Expr::Binary(TIMES, Box::new(l), Box::new(r));
            } else {
                break;
            }
        }
        Ok(l)
    }

    /// EOS level 4: prefix functions, right to left, each taking a level-3 product.
    fn prefix(&mut self) -> PResult<Expr> {
        match self.peek() {
            Some(b) if is_prefix_function(b) => {
                self.bump();
                self.operator()?;
                self.enter()?;
                let arg = self.prefix();
                self.leave();
                Ok(Expr::Prefix(b, Box::new(arg?)))
            }
            _ => self.implied_high(),
        }
    }

    fn starts_value(&self, b: u8) -> bool {
        (DIGIT_0..=DIGIT_9).contains(&b)
            || (LETTER_A..=THETA).contains(&b)
            || matches!(
                b,
                DECIMAL_POINT
                    | EXP10
                    | ANS
                    | PI
                    | RAND
                    | GET_KEY
                    | LPAREN
                    | LBRACE
                    | LBRACKET
                    | PREFIX_LIST
                    | PREFIX_MATRIX
                    | PREFIX_WINDOW
                    | PREFIX_STAT
                    | PREFIX_EQUATION
            )
    }

    /// EOS level 3: implied multiplication by a number, variable, list, matrix or `(`.
    fn implied_high(&mut self) -> PResult<Expr> {
        let mut l = self.power()?;
        while let Some(b) = self.peek() {
            if self.starts_value(b) {
                self.operator()?;
                let r = self.power()?;
                l = Expr::Binary(TIMES, Box::new(l), Box::new(r));
            } else {
                break;
            }
        }
        Ok(l)
    }

    /// EOS level 2: `^` and `ˣ√`, left to right. A negation may start the right operand.
    fn power(&mut self) -> PResult<Expr> {
        let mut l = self.postfix()?;
        while let Some(op @ (POWER | XROOT)) = self.peek() {
            self.bump();
            self.operator()?;
            let r = self.power_operand()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn power_operand(&mut self) -> PResult<Expr> {
        if self.eat(NEGATE) {
            self.operator()?;
            self.enter()?;
            let arg = self.power_operand();
            self.leave();
            Ok(Expr::Prefix(NEGATE, Box::new(arg?)))
        } else {
            self.postfix()
        }
    }

    /// EOS level 1: postfix operators.
    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        while let Some(
            op @ (SQUARE | INVERSE | FACTORIAL | DEGREE_MARK | RADIAN_MARK | TRANSPOSE | CUBE),
        ) = self.peek()
        {
            self.bump();
            self.operator()?;
            if op == DEGREE_MARK {
                e = self.dms_entry(e)?;
            }
            e = Expr::Postfix(op, Box::new(e));
        }
        Ok(e)
    }

    /// After `D°`: the minutes `M'` and seconds `S"` of a degrees-minutes-seconds entry, if
    /// they follow; the angle in degrees is D + M/60 + S/3600.
    fn dms_entry(&mut self, d: Expr) -> PResult<Expr> {
        let part = |p: &mut Self, mark: u8, per: i64, e: Expr| -> Option<Expr> {
            let at = p.pos;
            match p.peek() {
                Some(b) if (DIGIT_0..=DIGIT_9).contains(&b) || b == DECIMAL_POINT => {}
                _ => return None,
            }
            let n = p.number().ok()?;
            if !p.eat(mark) {
                p.pos = at;
                return None;
            }
            let scaled = Expr::Binary(
                DIVIDE,
                Box::new(n),
                Box::new(Expr::Num(Real::from_i64(per))),
            );
            Some(Expr::Binary(PLUS, Box::new(e), Box::new(scaled)))
        };
        let mut e = d;
        if let Some(m) = part(self, APOSTROPHE, 60, e.clone()) {
            e = m;
        }
        if let Some(s) = part(self, QUOTE, 3600, e.clone()) {
            e = s;
        }
        Ok(e)
    }

    fn args(&mut self, close: u8) -> PResult<Vec<Expr>> {
        let mut args = Vec::new();
        if self.peek() == Some(close) {
            self.bump();
            return Ok(args);
        }
        args.push(self.expr()?);
        while self.eat(COMMA) {
            args.push(self.expr()?);
        }
        self.close(close)?;
        Ok(args)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let b = self.peek().ok_or(Syntax)?;
        match b {
            _ if (DIGIT_0..=DIGIT_9).contains(&b) || b == DECIMAL_POINT || b == EXP10 => {
                self.number()
            }
            _ if (LETTER_A..=THETA).contains(&b) => Ok(Expr::Var(self.bump())),
            ANS => {
                self.bump();
                Ok(Expr::Ans)
            }
            BOXPLOT | HISTOGRAM | XY_LINE | SCATTER | MARK_BOX | MARK_CROSS | MARK_DOT => {
                self.bump();
                Ok(Expr::PlotToken(b))
            }
            PI => {
                self.bump();
                Ok(Expr::Pi)
            }
            RAND => {
                self.bump();
                Ok(Expr::Rand)
            }
            GET_KEY => {
                self.bump();
                Ok(Expr::GetKey)
            }
            LPAREN => {
                self.bump();
                let e = self.expr()?;
                self.close(RPAREN)?;
                Ok(e)
            }
            LBRACE => {
                self.bump();
                Ok(Expr::ListLit(self.args(RBRACE)?))
            }
            LBRACKET => {
                self.bump();
                let mut rows = Vec::new();
                while self.eat(LBRACKET) {
                    rows.push(self.args(RBRACKET)?);
                }
                self.close(RBRACKET)?;
                if rows.is_empty() {
                    return Err(Syntax);
                }
                Ok(Expr::MatLit(rows))
            }
            QUOTE => Ok(self.string_literal()),
            PREFIX_LIST => {
                self.bump();
                let k = self.bump();
                if k > 5 {
                    return Err(Syntax);
                }
                if self.eat(LPAREN) {
                    let e = self.expr()?;
                    self.close(RPAREN)?;
                    Ok(Expr::ListElem(k, Box::new(e)))
                } else {
                    Ok(Expr::List(k))
                }
            }
            PREFIX_MATRIX => {
                self.bump();
                let k = self.bump();
                if k > 4 {
                    return Err(Syntax);
                }
                if self.eat(LPAREN) {
                    let r = self.expr()?;
                    self.expect(COMMA)?;
                    let c = self.expr()?;
                    self.close(RPAREN)?;
                    Ok(Expr::MatElem(k, Box::new(r), Box::new(c)))
                } else {
                    Ok(Expr::Matrix(k))
                }
            }
            PREFIX_WINDOW => {
                self.bump();
                Ok(Expr::Window(self.bump()))
            }
            PREFIX_EQUATION | PREFIX_STAT | PREFIX_PIC | PREFIX_GDB => {
                self.bump();
                let k = self.bump();
                if b == PREFIX_EQUATION && is_equation(k) {
                    return Ok(Expr::Equation(k));
                }
                Ok(Expr::Unsupported(b, k))
            }
            _ if is_call_function(b) => {
                self.bump();
                let args = self.args(RPAREN)?;
                Ok(Expr::Call(b, args))
            }
            _ => Err(Syntax),
        }
    }

    /// A string literal from `"` to the next `"`, `→` or the end of the statement.
    fn string_literal(&mut self) -> Expr {
        self.bump();
        let mut s = Vec::new();
        while let Some(b) = self.peek() {
            if b == QUOTE {
                self.bump();
                break;
            }
            if b == STORE {
                break;
            }
            s.push(self.bump());
            if is_prefix(b) {
                s.push(self.bump());
            }
        }
        Expr::Str(s)
    }

    /// A number literal: digits, one decimal point, an optional `ᴇ` exponent with an optional
    /// negation. A bare `ᴇ3` means 1ᴇ3.
    fn number(&mut self) -> PResult<Expr> {
        let mut text = String::new();
        let mut seen_point = false;
        while let Some(b) = self.peek() {
            if (DIGIT_0..=DIGIT_9).contains(&b) {
                text.push((b - DIGIT_0 + b'0') as char);
            } else if b == DECIMAL_POINT && !seen_point {
                seen_point = true;
                text.push('.');
            } else {
                break;
            }
            self.bump();
        }
        if self.eat(EXP10) {
            if text.is_empty() {
                text.push('1');
            }
            text.push('E');
            if self.eat(NEGATE) {
                text.push('-');
            }
            let mut digits = 0;
            while let Some(b @ DIGIT_0..=DIGIT_9) = self.peek() {
                text.push((b - DIGIT_0 + b'0') as char);
                self.bump();
                digits += 1;
            }
            if digits == 0 {
                return Err(Syntax);
            }
        }
        if text == "." {
            return Err(Syntax);
        }
        Real::parse(&text).map(Expr::Num).ok_or(Syntax)
    }
}
