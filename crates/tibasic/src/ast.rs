//! The compiled form of a TI-BASIC program: one [`Stmt`] per statement, each remembering the
//! byte offset it came from (for `ERR:` screens and `Goto` into the listing).

use crate::real::Real;

/// A label name: one or two of `A`–`Z`, `0`–`9`, `θ` (token bytes, second 0 when absent).
pub type Label = [u8; 2];

/// An expression. Operators and functions are kept as their token bytes so errors can name
/// them exactly as the calculator does.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(Real),
    /// A real variable: token 41h–5Bh (`A`–`Z`, `θ`).
    Var(u8),
    Ans,
    /// `L1`–`L6` (0–5).
    List(u8),
    ListElem(u8, Box<Expr>),
    /// `[A]`–`[E]` (0–4).
    Matrix(u8),
    MatElem(u8, Box<Expr>, Box<Expr>),
    ListLit(Vec<Expr>),
    MatLit(Vec<Vec<Expr>>),
    /// A string literal: the token bytes between the quotes.
    Str(Vec<u8>),
    /// A window/zoom/table variable (second byte after 63h).
    Window(u8),
    Pi,
    Rand,
    GetKey,
    /// A one-argument prefix function (`int `, `sin `, negation, `not `, `dim `...).
    Prefix(u8, Box<Expr>),
    /// A postfix operator (`²`, `⁻¹`, `!`, `°`, `ʳ`, `ᵀ`, `³`).
    Postfix(u8, Box<Expr>),
    /// A binary operator by token (`+`, `*`, `^`, `=`, ` and `...).
    Binary(u8, Box<Expr>, Box<Expr>),
    /// A function with a parenthesised argument list (`max(`, `round(`, `seq(`...).
    Call(u8, Vec<Expr>),
    /// A Y-variable (`5Eh` `k`, [`crate::token::is_equation`]): `Y₁`-`Y₀` at the current X,
    /// `X₁ᴛ`…`Y₆ᴛ` at T, `r₁`-`r₆` at θ.
    Equation(u8),
    /// A stat plot's type or mark (`Scatter`, `□`...), an argument of `Plot1(`-`Plot3(`.
    PlotToken(u8),
    /// A token this runtime cannot evaluate (1 or 2 bytes): evaluating it is an error naming it.
    Unsupported(u8, u8),
}

/// Where `→` and `Input`/`Prompt` store.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Var(u8),
    List(u8),
    ListElem(u8, Expr),
    /// `n→dim L1`
    ListDim(u8),
    Matrix(u8),
    MatElem(u8, Expr, Expr),
    /// `{r,c}→dim [A]`
    MatDim(u8),
    Window(u8),
    /// `"X²-2"→Y₁`
    Equation(u8),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// A bare expression: its value goes to `Ans`.
    Expr(Expr),
    Store(Expr, Target),
    If(Expr),
    Then,
    Else,
    End,
    For {
        var: u8,
        start: Expr,
        end: Expr,
        step: Option<Expr>,
    },
    While(Expr),
    Repeat(Expr),
    Lbl(Label),
    Goto(Label),
    IsGt(u8, Expr),
    DsLt(u8, Expr),
    Pause,
    Stop,
    Return,
    /// `prgmNAME`: the name's token bytes.
    Call(Vec<u8>),
    Menu {
        title: Expr,
        items: Vec<(Expr, Label)>,
    },
    Disp(Vec<Expr>),
    Output(Expr, Expr, Expr),
    ClrHome,
    Input {
        prompt: Option<Expr>,
        target: Option<Target>,
    },
    Prompt(Vec<Target>),
    /// Any other command, by token (second byte 0 for one-byte tokens), with its arguments.
    Command(u8, u8, Vec<Expr>),
    /// An empty statement (blank line, `::`).
    Empty,
    /// The statement does not parse: executing it is `ERR:SYNTAX`.
    SyntaxError,
    /// The statement nests deeper or holds more operators than the parser's limits
    /// (`parse::MAX_NESTING`, `parse::MAX_OPERATORS`): executing it is `ERR:MEMORY`.
    TooDeep,
}

/// One statement and where it starts in the program's token bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub offset: u32,
    pub stmt: Stmt,
}
