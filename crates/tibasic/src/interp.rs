//! The statement machine: control flow, program calls, and the points where a program waits
//! for the user or the link. It executes one statement per [`Interp::step`], so the firmware
//! can stop anywhere and resume exactly there.
//!
//! Block structure follows the TI-82 OS, which keeps no parse tree: `If`/`While`/`For(` that
//! skip their body scan forward for the matching `Else`/`End` by counting nested openers, and
//! `End` pops whatever block is on top of the stack. `Goto` leaves open blocks on the stack, as
//! on the calculator (a program that jumps out of loops forever eventually hits ERR:MEMORY).

use std::sync::Arc;

use crate::ast::{Expr, Label, Line, Stmt, Target};
use crate::conv::Form;
use crate::cost;
use crate::eval::{eval, int_arg, math, Env};
use crate::parse::compile;
use crate::real::Real;
use crate::token::{CLR_LIST, FILL, LETTER_A, SORT_A, SORT_D, THETA};
use crate::value::{ErrorKind, Value};

/// Open blocks allowed before ERR:MEMORY (the OS's operator stack would be full long before).
pub const MAX_BLOCKS: usize = 200;
/// Nested `prgm` calls allowed before ERR:MEMORY.
pub const MAX_CALLS: usize = 30;

/// Most variables one `Prompt` can ask for (a bound for save states; the statement itself is
/// limited by the program's length).
pub const MAX_INPUT_ITEMS: usize = 64;

/// What the calculator must provide to run statements, beyond expression evaluation.
pub trait Sys: Env {
    fn store(&mut self, target: &Target, v: Value) -> Result<(), ErrorKind>;
    fn set_ans(&mut self, v: Value) -> Result<(), ErrorKind>;
    /// The token bytes of program `name`.
    fn program(&mut self, name: &[u8]) -> Result<Vec<u8>, ErrorKind>;
    fn clr_home(&mut self);
    fn disp(&mut self, v: &Value) -> Result<(), ErrorKind>;
    /// `Disp` of a value ending in `►Frac` or `►DMS`, shown that way.
    fn disp_shown(&mut self, v: &Value, shown: Form) -> Result<(), ErrorKind> {
        let _ = shown;
        self.disp(v)
    }
    /// How a home-screen entry's answer is to be shown (its last `►Frac`/`►DMS`).
    fn entry_shown(&mut self, _shown: Form) {}
    fn output(&mut self, row: i64, col: i64, v: &Value) -> Result<(), ErrorKind>;
    /// A graphics, list, mode or link command. May ask the interpreter to wait.
    fn command(&mut self, tok: u8, tok2: u8, args: Vec<Value>) -> Result<Step, ErrorKind>;
    /// A drawing command whose arguments are functions of X, evaluated column by column:
    /// `DrawF`, `DrawInv`, `Shade(`, `Tangent(`.
    /// `Plot1(`-`Plot3(` (`n` 0-2): a stat plot defined and turned on; its lists by name.
    fn stat_plot(&mut self, n: u8, kind: u8, lists: [u8; 2], mark: u8) -> Result<(), ErrorKind> {
        let _ = (n, kind, lists, mark);
        Err(ErrorKind::Unsupported("Plot1(".into()))
    }
    fn draw_function(&mut self, tok: u8, args: &[Expr]) -> Result<(), ErrorKind> {
        let _ = args;
        Err(ErrorKind::Unsupported(format!("token {tok:02X}")))
    }
}

/// What a statement asks the firmware to do before the next one.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Continue,
    Wait(Wait),
}

/// A statement waiting for the user or the link. The firmware completes it with
/// [`Interp::finish_wait`].
#[derive(Clone, Debug, PartialEq)]
pub enum Wait {
    /// `Pause`: until ENTER.
    Pause,
    /// `Menu(`: the title and item texts (token bytes or values), and the labels.
    Menu {
        title: Value,
        items: Vec<Value>,
        labels: Vec<Label>,
    },
    /// `Input`/`Prompt`: read a value for each target in turn, after showing its prompt.
    Input(Vec<(Option<Value>, Target)>),
    /// `Get(`: a link transfer the firmware runs (list or variable named by the target).
    Get(Target),
    /// `Send(`: the firmware pushes the named variable with RTS (spec 1.7.7).
    Send(Target),
    /// `PrintScreen`: the firmware pushes the display as a screen variable (spec 1.7.5).
    PrintScreen,
    /// `DispTable`: the table shown until ENTER.
    Table(crate::table::TableData),
    /// `ZBox`, `Zoom In`, `Zoom Out`, `ZInteger`, `Trace`: the graph with a cursor the
    /// user moves; ENTER acts at it (ZBox: twice, a corner each).
    GraphCursor(GraphCursor),
}

/// A cursor on the graph: the command (its token), the pixel, ZBox's first corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphCursor {
    pub command: u8,
    pub row: i64,
    pub col: i64,
    pub corner: Option<(i64, i64)>,
}

/// How a program run ended, or where it stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Idle,
    Running,
    Waiting(Wait),
    /// The program ran to its end, `Stop` or the last `Return`: the home screen shows `Done`.
    Done,
    Error(ProgramError),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProgramError {
    pub kind: ErrorKind,
    /// The program that failed, and the byte offset of the failing statement in it.
    pub program: Vec<u8>,
    pub offset: u32,
}

#[derive(Clone, Debug, PartialEq)]
enum Block {
    /// An `If`-`Then` (or its `Else` part) being executed.
    Then,
    For {
        line: usize,
        var: u8,
        end: Real,
        step: Real,
    },
    While {
        line: usize,
    },
    Repeat {
        line: usize,
    },
}

#[derive(Clone, Debug)]
struct Frame {
    name: Vec<u8>,
    /// The program's token bytes (kept for save states) and their compiled form.
    source: Arc<Vec<u8>>,
    lines: Arc<Vec<Line>>,
    pc: usize,
    blocks: Vec<Block>,
}

impl Frame {
    /// The byte offset of the statement this frame is at (past the end: its last one).
    fn offset(&self) -> u32 {
        self.lines
            .get(self.pc)
            .map_or_else(|| self.lines.last().map_or(0, |l| l.offset), |l| l.offset)
    }

    fn new(name: &[u8], bytes: Vec<u8>) -> Frame {
        Frame {
            name: name.to_vec(),
            lines: Arc::new(compile(&bytes)),
            source: Arc::new(bytes),
            pc: 0,
            blocks: Vec::new(),
        }
    }
}

/// The running programs: a call stack of frames.
#[derive(Clone, Debug, Default)]
pub struct Interp {
    frames: Vec<Frame>,
    status: Option<Status>,
}

impl Interp {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn status(&self) -> Status {
        self.status.clone().unwrap_or(Status::Idle)
    }

    /// The status without a copy (a `Menu(`'s items are not cloned on every look).
    pub fn status_ref(&self) -> &Status {
        const IDLE: Status = Status::Idle;
        self.status.as_ref().unwrap_or(&IDLE)
    }

    pub fn is_running(&self) -> bool {
        matches!(self.status, Some(Status::Running))
    }

    /// Starts program `name` from the top (what `prgmNAME ENTER` on the home screen does).
    pub fn start<S: Sys>(&mut self, sys: &mut S, name: &[u8]) -> Result<(), ErrorKind> {
        self.frames.clear();
        let bytes = sys.program(name)?;
        self.frames.push(Frame::new(name, bytes));
        self.status = Some(Status::Running);
        Ok(())
    }

    /// Runs `bytes` as an unnamed program (a home-screen entry).
    pub fn start_bytes(&mut self, name: &[u8], bytes: &[u8]) {
        self.frames.clear();
        self.frames.push(Frame::new(name, bytes.to_vec()));
        self.status = Some(Status::Running);
    }

    /// The name of the outermost running program (empty for a home-screen entry).
    pub fn program_name(&self) -> &[u8] {
        self.frames.first().map_or(&[], |f| &f.name)
    }

    /// Ends every program (ON during a program, or the user quitting an error screen).
    pub fn abort(&mut self) {
        self.frames.clear();
        self.status = Some(Status::Idle);
    }

    /// Where the current statement is: program name and byte offset.
    pub fn position(&self) -> Option<(Vec<u8>, u32)> {
        let f = self.frames.last()?;
        Some((f.name.clone(), f.offset()))
    }

    /// The call stack, outermost first: each running program's name and the byte offset of
    /// the statement it is at (a caller's is its `prgm` call).
    pub fn frames(&self) -> Vec<(Vec<u8>, u32)> {
        self.frames
            .iter()
            .map(|f| (f.name.clone(), f.offset()))
            .collect()
    }

    /// The statement about to run: its program and byte offset. `None` past a program's last
    /// statement (the next step returns to the caller) and at an empty statement (a blank
    /// line, `::`): a debugger stops at neither.
    pub fn statement(&self) -> Option<(&[u8], u32)> {
        let f = self.frames.last()?;
        let l = f.lines.get(f.pc)?;
        (l.stmt != Stmt::Empty).then_some((f.name.as_slice(), l.offset))
    }

    /// How many programs are running (1: no `prgm` call in progress).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Raises `kind` at the current statement (used for ON = ERR:BREAK).
    pub fn raise(&mut self, kind: ErrorKind) {
        let (program, offset) = self.position().unwrap_or_default();
        self.frames.clear();
        self.status = Some(Status::Error(ProgramError {
            kind,
            program,
            offset,
        }));
    }

    /// Completes a wait. `Pause` needs no value; `Menu(` gives the chosen item (0-based);
    /// `Input`/`Prompt`/`Get(` store their value through `sys` themselves before calling this.
    /// Replaces the wait in progress with `w` (a graph cursor that moved).
    pub fn update_wait(&mut self, w: Wait) {
        if let Some(Status::Waiting(_)) = self.status {
            self.status = Some(Status::Waiting(w));
        }
    }

    pub fn finish_wait(&mut self, choice: Option<usize>) {
        let Some(Status::Waiting(wait)) = self.status.take() else {
            return;
        };
        self.status = Some(Status::Running);
        if let Wait::Menu { labels, .. } = wait {
            let label = choice.and_then(|c| labels.get(c).copied());
            match label {
                Some(l) => {
                    if let Err(kind) = self.goto(l) {
                        self.fail(kind);
                    }
                }
                None => self.advance(),
            }
        } else {
            self.advance();
        }
    }

    fn fail(&mut self, kind: ErrorKind) {
        self.raise(kind);
    }

    fn frame(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut()
    }

    fn advance(&mut self) {
        if let Some(f) = self.frame() {
            f.pc += 1;
        }
    }

    /// Executes one statement. Returns the status after it.
    pub fn step<S: Sys>(&mut self, sys: &mut S) -> Status {
        if !self.is_running() {
            return self.status();
        }
        match self.exec_one(sys) {
            Ok(()) => {}
            Err(kind) => self.fail(kind),
        }
        self.status()
    }

    fn exec_one<S: Sys>(&mut self, sys: &mut S) -> Result<(), ErrorKind> {
        let Some(frame) = self.frames.last() else {
            self.status = Some(Status::Done);
            return Ok(());
        };
        let lines = frame.lines.clone();
        let pc = frame.pc;
        let Some(line) = lines.get(pc) else {
            // Fell off the end: return to the caller, or finish.
            self.frames.pop();
            if self.frames.is_empty() {
                self.status = Some(Status::Done);
            } else {
                self.advance();
            }
            return Ok(());
        };
        let stmt = &line.stmt;
        sys.charge(cost::statement(stmt));
        match stmt {
            Stmt::Empty | Stmt::Lbl(_) => self.advance(),
            Stmt::SyntaxError => return Err(ErrorKind::Syntax),
            Stmt::TooDeep => return Err(ErrorKind::Memory),
            Stmt::Expr(e) => {
                let v = eval(sys, e)?;
                sys.entry_shown(shown_of(e));
                if !matches!(v, Value::Str(_)) {
                    sys.set_ans(v)?;
                }
                self.advance();
            }
            Stmt::Store(e, t) => {
                let v = eval(sys, e)?;
                // A quoted expression stores only into a Y-variable (the TI-82 has no
                // string variables); Ans keeps its value then.
                match (&v, t) {
                    (Value::Str(_), Target::Equation(_)) => sys.store(t, v)?,
                    (Value::Str(_), _) => return Err(ErrorKind::DataType),
                    _ => {
                        sys.store(t, v.clone())?;
                        sys.set_ans(v)?;
                    }
                }
                self.advance();
            }
            Stmt::If(cond) => {
                let c = truthy(eval(sys, cond)?)?;
                let then_block = matches!(lines.get(pc + 1).map(|l| &l.stmt), Some(Stmt::Then));
                let f = self.frame().expect("frame exists");
                if then_block {
                    if c {
                        push_block(f, Block::Then)?;
                        f.pc = pc + 2;
                    } else {
                        // Skip to the matching Else (run its part) or End (skip it too).
                        let (at, is_else) = skip_block(&lines, pc + 2, true);
                        sys.charge(cost::SKIP_LINE * (at - pc - 1) as u64);
                        if is_else {
                            push_block(f, Block::Then)?;
                        }
                        f.pc = at + 1;
                    }
                } else {
                    f.pc = if c { pc + 1 } else { pc + 2 };
                    if !c {
                        sys.charge(cost::SKIP_LINE);
                    }
                }
            }
            Stmt::Then => return Err(ErrorKind::Syntax),
            Stmt::Else => {
                // Reached at the end of a true If-Then part: skip the Else part.
                let f = self.frame().expect("frame exists");
                match f.blocks.pop() {
                    Some(Block::Then) => {
                        let (at, _) = skip_block(&lines, pc + 1, false);
                        f.pc = at + 1;
                        sys.charge(cost::SKIP_LINE * (at - pc) as u64);
                    }
                    _ => return Err(ErrorKind::Syntax),
                }
            }
            Stmt::End => self.end(sys, &lines)?,
            Stmt::For {
                var,
                start,
                end,
                step,
            } => {
                let start = eval(sys, start)?.real()?;
                let end = eval(sys, end)?.real()?;
                let step = match step {
                    Some(s) => eval(sys, s)?.real()?,
                    None => Real::ONE,
                };
                if step.is_zero() {
                    return Err(ErrorKind::Increment);
                }
                sys.set_real(*var, start)?;
                let f = self.frame().expect("frame exists");
                if in_range(start, end, step) {
                    push_block(
                        f,
                        Block::For {
                            line: pc,
                            var: *var,
                            end,
                            step,
                        },
                    )?;
                    f.pc = pc + 1;
                } else {
                    let (at, _) = skip_block(&lines, pc + 1, false);
                    f.pc = at + 1;
                    sys.charge(cost::SKIP_LINE * (at - pc) as u64);
                }
            }
            Stmt::While(cond) => {
                let c = truthy(eval(sys, cond)?)?;
                let f = self.frame().expect("frame exists");
                if c {
                    push_block(f, Block::While { line: pc })?;
                    f.pc = pc + 1;
                } else {
                    let (at, _) = skip_block(&lines, pc + 1, false);
                    f.pc = at + 1;
                    sys.charge(cost::SKIP_LINE * (at - pc) as u64);
                }
            }
            Stmt::Repeat(_) => {
                let f = self.frame().expect("frame exists");
                push_block(f, Block::Repeat { line: pc })?;
                f.pc = pc + 1;
            }
            Stmt::Goto(l) => {
                self.goto(*l)?;
                // The OS reads the program from its top up to the label.
                let label_at = self.frame().map_or(0, |f| f.lines[f.pc - 1].offset);
                sys.charge(cost::LABEL_SEARCH + cost::LABEL_BYTE * u64::from(label_at));
            }
            Stmt::IsGt(var, limit) | Stmt::DsLt(var, limit) => {
                let inc = matches!(stmt, Stmt::IsGt(..));
                let limit = eval(sys, limit)?.real()?;
                let v = sys.real(*var)?;
                let v = if inc {
                    v.add(Real::ONE)
                } else {
                    v.sub(Real::ONE)
                }
                .map_err(math)?;
                sys.set_real(*var, v)?;
                let skip = if inc { v > limit } else { v < limit };
                let f = self.frame().expect("frame exists");
                f.pc = pc + if skip { 2 } else { 1 };
            }
            Stmt::Pause => self.wait(Wait::Pause),
            Stmt::Stop => {
                self.frames.clear();
                self.status = Some(Status::Done);
            }
            Stmt::Return => {
                self.frames.pop();
                if self.frames.is_empty() {
                    self.status = Some(Status::Done);
                } else {
                    self.advance();
                }
            }
            Stmt::Call(name) => {
                if self.frames.len() >= MAX_CALLS {
                    return Err(ErrorKind::Memory);
                }
                let bytes = sys.program(name)?;
                self.frames.push(Frame::new(name, bytes));
            }
            Stmt::Menu { title, items } => {
                let title = eval(sys, title)?;
                let mut texts = Vec::with_capacity(items.len());
                let mut labels = Vec::with_capacity(items.len());
                for (text, label) in items {
                    texts.push(eval(sys, text)?);
                    labels.push(*label);
                }
                // The OS checks every label before showing the menu.
                for l in &labels {
                    find_label(&lines, *l)?;
                }
                self.wait(Wait::Menu {
                    title,
                    items: texts,
                    labels,
                });
            }
            Stmt::Disp(args) => {
                if args.is_empty() {
                    // `Disp` alone shows the home screen.
                    sys.command(crate::token::DISP, 0, Vec::new())?;
                }
                for a in args {
                    let v = eval(sys, a)?;
                    match shown_of(a) {
                        Form::Decimal => sys.disp(&v)?,
                        shown => sys.disp_shown(&v, shown)?,
                    }
                }
                self.advance();
            }
            Stmt::Output(r, c, v) => {
                let r = int_arg(eval(sys, r)?.real()?, 1, 8)?;
                let c = int_arg(eval(sys, c)?.real()?, 1, 16)?;
                let v = eval(sys, v)?;
                sys.output(r, c, &v)?;
                self.advance();
            }
            Stmt::ClrHome => {
                sys.clr_home();
                self.advance();
            }
            Stmt::Input { prompt, target } => match target {
                // A bare `Input`: the graph with the free-moving cursor; ENTER stores the
                // cursor's point in X and Y (the OS's `Input` command, as the cursor zooms).
                None => match sys.command(crate::token::INPUT, 0, Vec::new())? {
                    Step::Continue => self.advance(),
                    Step::Wait(w) => self.wait(w),
                },
                Some(t) => {
                    let prompt = match prompt {
                        Some(p) => Some(eval(sys, p)?),
                        None => None,
                    };
                    let t = resolve_target(sys, t)?;
                    self.wait(Wait::Input(vec![(prompt, t)]));
                }
            },
            Stmt::Prompt(targets) => {
                if targets.len() > MAX_INPUT_ITEMS {
                    return Err(ErrorKind::Memory);
                }
                let items = targets
                    .iter()
                    .map(|t| (Some(Value::Str(prompt_text(t))), t.clone()))
                    .collect();
                self.wait(Wait::Input(items));
            }
            Stmt::Command(
                tok @ (crate::token::DRAW_F
                | crate::token::DRAW_INV
                | crate::token::SHADE
                | crate::token::TANGENT),
                _,
                args,
            ) => {
                sys.draw_function(*tok, args)?;
                self.advance();
            }
            Stmt::Command(tok @ crate::token::PLOT1..=crate::token::PLOT3, _, args) => {
                let (kind, lists, mark) = plot_args(sys, args)?;
                sys.stat_plot(tok - crate::token::PLOT1, kind, lists, mark)?;
                self.advance();
            }
            Stmt::Command(tok @ (FILL | SORT_A | SORT_D | CLR_LIST), _, args) => {
                list_command(sys, *tok, args)?;
                self.advance();
            }
            Stmt::Command(tok, tok2, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    // Get( and Send( name their variable instead of evaluating it.
                    if matches!(*tok, crate::token::GET | crate::token::SEND) {
                        break;
                    }
                    vals.push(eval(sys, a)?);
                }
                if *tok == crate::token::GET {
                    let t = get_command_target(args)?;
                    self.wait(Wait::Get(t));
                    return Ok(());
                }
                if *tok == crate::token::SEND {
                    let t = get_command_target(args)?;
                    self.wait(Wait::Send(t));
                    return Ok(());
                }
                if *tok == crate::token::PRINT_SCREEN {
                    if !args.is_empty() {
                        return Err(ErrorKind::Argument);
                    }
                    self.wait(Wait::PrintScreen);
                    return Ok(());
                }
                match sys.command(*tok, *tok2, vals)? {
                    Step::Continue => self.advance(),
                    Step::Wait(w) => self.wait(w),
                }
            }
        }
        Ok(())
    }

    fn wait(&mut self, w: Wait) {
        self.status = Some(Status::Waiting(w));
    }

    fn end<S: Sys>(&mut self, sys: &mut S, lines: &Arc<Vec<Line>>) -> Result<(), ErrorKind> {
        let f = self.frames.last_mut().expect("frame exists");
        let pc = f.pc;
        match f.blocks.pop() {
            None => return Err(ErrorKind::Syntax),
            Some(Block::Then) => f.pc = pc + 1,
            Some(Block::While { line }) => f.pc = line,
            Some(Block::Repeat { line }) => {
                let cond = match &lines[line].stmt {
                    Stmt::Repeat(c) => c,
                    _ => return Err(ErrorKind::Syntax),
                };
                let done = truthy(eval(sys, cond)?)?;
                let f = self.frames.last_mut().expect("frame exists");
                if done {
                    f.pc = pc + 1;
                } else {
                    f.blocks.push(Block::Repeat { line });
                    f.pc = line + 1;
                }
            }
            Some(Block::For {
                line,
                var,
                end,
                step,
            }) => {
                sys.charge(cost::FOR_STEP);
                let v = sys.real(var)?.add(step).map_err(math)?;
                sys.set_real(var, v)?;
                let f = self.frames.last_mut().expect("frame exists");
                if in_range(v, end, step) {
                    f.blocks.push(Block::For {
                        line,
                        var,
                        end,
                        step,
                    });
                    f.pc = line + 1;
                } else {
                    f.pc = pc + 1;
                }
            }
        }
        Ok(())
    }

    fn goto(&mut self, l: Label) -> Result<(), ErrorKind> {
        let f = self.frames.last_mut().ok_or(ErrorKind::Label)?;
        let at = find_label(&f.lines, l)?;
        f.pc = at + 1;
        Ok(())
    }
}

/// A trailing `►Frac` or `►DMS` decides how the value is shown.
fn shown_of(e: &Expr) -> Form {
    match e {
        Expr::Postfix(crate::token::TO_FRAC, _) => Form::Frac,
        Expr::Postfix(crate::token::TO_DMS, _) => Form::Dms,
        _ => Form::Decimal,
    }
}

fn push_block(f: &mut Frame, b: Block) -> Result<(), ErrorKind> {
    if f.blocks.len() >= MAX_BLOCKS {
        return Err(ErrorKind::Memory);
    }
    f.blocks.push(b);
    Ok(())
}

fn in_range(v: Real, end: Real, step: Real) -> bool {
    if step.is_negative() {
        v >= end
    } else {
        v <= end
    }
}

fn truthy(v: Value) -> Result<bool, ErrorKind> {
    Ok(!v.real()?.is_zero())
}

/// From statement `from`, finds the `End` (or, when `else_ok`, an `Else`) that closes the
/// current block, counting nested blocks. Returns its index and whether it is an `Else`; the
/// end of the program counts as the closing `End`.
fn skip_block(lines: &[Line], from: usize, else_ok: bool) -> (usize, bool) {
    let mut depth = 0usize;
    let mut i = from;
    while i < lines.len() {
        match &lines[i].stmt {
            Stmt::Then | Stmt::For { .. } | Stmt::While(_) | Stmt::Repeat(_) => depth += 1,
            Stmt::Else if depth == 0 && else_ok => return (i, true),
            Stmt::End => {
                if depth == 0 {
                    return (i, false);
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    (lines.len(), false)
}

/// Labels are searched from the top of the program; the first match wins.
fn find_label(lines: &[Line], l: Label) -> Result<usize, ErrorKind> {
    lines
        .iter()
        .position(|line| line.stmt == Stmt::Lbl(l))
        .ok_or(ErrorKind::Label)
}

fn get_command_target(args: &[Expr]) -> Result<Target, ErrorKind> {
    match args {
        [Expr::Var(v)] => Ok(Target::Var(*v)),
        [Expr::List(k)] => Ok(Target::List(*k)),
        [Expr::Matrix(k)] => Ok(Target::Matrix(*k)),
        [_] => Err(ErrorKind::DataType),
        _ => Err(ErrorKind::Argument),
    }
}

/// `Prompt A` shows `A=?`: the variable's name, `=` and `?` as token bytes.
fn prompt_text(t: &Target) -> Vec<u8> {
    let mut s = match t {
        Target::Var(v) => vec![*v],
        Target::List(k) => vec![crate::token::PREFIX_LIST, *k],
        Target::Matrix(k) => vec![crate::token::PREFIX_MATRIX, *k],
        Target::Window(k) => vec![crate::token::PREFIX_WINDOW, *k],
        Target::Equation(k) => vec![crate::token::PREFIX_EQUATION, *k],
        _ => vec![],
    };
    s.push(crate::token::EQ);
    s.push(0xAF);
    s
}

/// `Plot1(type,Xlist,Ylist[,mark])` for Scatter and xyLine, `Plot1(type,Xlist[,Freq])` for
/// Histogram and Boxplot (Freq a list, or 1 for none: then the second list is 255).
fn plot_args<S: Sys>(sys: &mut S, args: &[Expr]) -> Result<(u8, [u8; 2], u8), ErrorKind> {
    use crate::token::*;
    let Some(Expr::PlotToken(kind)) = args.first() else {
        return Err(ErrorKind::Argument);
    };
    match (*kind, &args[1..]) {
        (SCATTER | XY_LINE, [x, y, rest @ ..]) if rest.len() <= 1 => {
            let mark = match rest.first() {
                None => MARK_BOX,
                Some(Expr::PlotToken(m @ (MARK_BOX | MARK_CROSS | MARK_DOT))) => *m,
                Some(_) => return Err(ErrorKind::Argument),
            };
            Ok((*kind, [list_arg(x)?, list_arg(y)?], mark))
        }
        (HISTOGRAM | BOXPLOT, [x, rest @ ..]) if rest.len() <= 1 => {
            let freq = match rest.first() {
                None => 255,
                Some(Expr::List(k)) => *k,
                Some(e) => {
                    if eval(sys, e)?.real()? != Real::ONE {
                        return Err(ErrorKind::Domain);
                    }
                    255
                }
            };
            Ok((*kind, [list_arg(x)?, freq], MARK_BOX))
        }
        _ => Err(ErrorKind::Argument),
    }
}

fn list_arg(e: &Expr) -> Result<u8, ErrorKind> {
    match e {
        Expr::List(k) => Ok(*k),
        _ => Err(ErrorKind::DataType),
    }
}

/// The list commands name their lists rather than take values: `Fill(`, `SortA(`, `SortD(`,
/// `ClrList`.
fn list_command<S: Sys>(sys: &mut S, tok: u8, args: &[Expr]) -> Result<(), ErrorKind> {
    match (tok, args) {
        (FILL, [value, Expr::Matrix(k)]) => {
            let x = eval(sys, value)?.real()?;
            let mut m = sys.matrix(*k)?;
            m.data.fill(x);
            sys.store(&Target::Matrix(*k), Value::Matrix(m))
        }
        (FILL, [value, list]) => {
            let k = list_arg(list)?;
            let x = eval(sys, value)?.real()?;
            let n = sys.list(k)?.len();
            sys.store(&Target::List(k), Value::List(vec![x; n]))
        }
        (SORT_A | SORT_D, [key, rest @ ..]) => {
            let k = list_arg(key)?;
            let keys = sys.list(k)?;
            let mut order: Vec<usize> = (0..keys.len()).collect();
            // A stable sort, so equal keys keep their order in the dependent lists.
            order.sort_by(|&a, &b| {
                let o = keys[a].cmp(&keys[b]);
                if tok == SORT_D {
                    o.reverse()
                } else {
                    o
                }
            });
            let mut lists = vec![(k, keys)];
            for e in rest {
                let d = list_arg(e)?;
                let l = sys.list(d)?;
                if l.len() != order.len() {
                    return Err(ErrorKind::DimMismatch);
                }
                lists.push((d, l));
            }
            for (d, l) in lists {
                let sorted = order.iter().map(|&i| l[i]).collect();
                sys.store(&Target::List(d), Value::List(sorted))?;
            }
            Ok(())
        }
        (CLR_LIST, lists) if !lists.is_empty() => {
            for e in lists {
                let k = list_arg(e)?;
                sys.store(&Target::List(k), Value::List(Vec::new()))?;
            }
            Ok(())
        }
        _ => Err(ErrorKind::Argument),
    }
}

/// A target whose element indexes are evaluated now (so a waiting statement holds plain
/// values, which save states can keep).
fn resolve_target<S: Sys>(sys: &mut S, t: &Target) -> Result<Target, ErrorKind> {
    Ok(match t {
        Target::ListElem(k, i) => Target::ListElem(*k, Expr::Num(eval(sys, i)?.real()?)),
        Target::MatElem(k, r, c) => Target::MatElem(
            *k,
            Expr::Num(eval(sys, r)?.real()?),
            Expr::Num(eval(sys, c)?.real()?),
        ),
        other => other.clone(),
    })
}

// ---------------------------------------------------------------------- save states

use ti82_machine::state::{StateError, StateReader, StateWriter};

/// A real in a save state: its 9 BCD bytes (shared by every part of the runtime's state).
pub(crate) fn put_real(w: &mut StateWriter, r: Real) {
    w.bytes(&r.to_bcd());
}

pub(crate) fn get_real(r: &mut StateReader) -> Result<Real, StateError> {
    let b = r.bytes()?;
    let a: [u8; 9] = b.try_into().map_err(|_| StateError::Corrupt("real"))?;
    Real::from_bcd(a).map_err(|_| StateError::Corrupt("real"))
}

fn put_value(w: &mut StateWriter, v: &Value) {
    match v {
        Value::Real(x) => {
            w.u8(0);
            put_real(w, *x);
        }
        Value::List(l) => {
            w.u8(1);
            w.u32(l.len() as u32);
            l.iter().for_each(|x| put_real(w, *x));
        }
        Value::Matrix(m) => {
            w.u8(2);
            w.u32(m.rows as u32);
            w.u32(m.cols as u32);
            m.data.iter().for_each(|x| put_real(w, *x));
        }
        Value::Str(s) => {
            w.u8(3);
            w.bytes(s);
        }
    }
}

fn get_value(r: &mut StateReader) -> Result<Value, StateError> {
    Ok(match r.u8()? {
        0 => Value::Real(get_real(r)?),
        1 => {
            let n = (r.u32()? as usize).min(crate::value::MAX_LIST);
            Value::List((0..n).map(|_| get_real(r)).collect::<Result<_, _>>()?)
        }
        2 => {
            let rows = (r.u32()? as usize).min(crate::value::MAX_DIM);
            let cols = (r.u32()? as usize).min(crate::value::MAX_DIM);
            let data = (0..rows * cols)
                .map(|_| get_real(r))
                .collect::<Result<_, _>>()?;
            Value::Matrix(crate::value::Matrix { rows, cols, data })
        }
        3 => Value::Str(r.bytes()?.to_vec()),
        _ => return Err(StateError::Corrupt("value tag")),
    })
}

fn put_target(w: &mut StateWriter, t: &Target) {
    let num = |e: &Expr| match e {
        Expr::Num(x) => *x,
        _ => Real::ZERO,
    };
    match t {
        Target::Var(v) => {
            w.u8(0);
            w.u8(*v);
        }
        Target::List(k) => {
            w.u8(1);
            w.u8(*k);
        }
        Target::ListElem(k, i) => {
            w.u8(2);
            w.u8(*k);
            put_real(w, num(i));
        }
        Target::ListDim(k) => {
            w.u8(3);
            w.u8(*k);
        }
        Target::Matrix(k) => {
            w.u8(4);
            w.u8(*k);
        }
        Target::MatElem(k, a, b) => {
            w.u8(5);
            w.u8(*k);
            put_real(w, num(a));
            put_real(w, num(b));
        }
        Target::MatDim(k) => {
            w.u8(6);
            w.u8(*k);
        }
        Target::Window(k) => {
            w.u8(7);
            w.u8(*k);
        }
        Target::Equation(k) => {
            w.u8(8);
            w.u8(*k);
        }
    }
}

fn get_target(r: &mut StateReader) -> Result<Target, StateError> {
    let tag = r.u8()?;
    let k = r.u8()?;
    // The same ranges the parser accepts: a real variable, L1-L6, [A]-[E].
    let ok = match tag {
        0 => (LETTER_A..=THETA).contains(&k),
        1..=3 => k <= 5,
        4..=6 => k <= 4,
        8 => crate::token::is_equation(k),
        _ => true,
    };
    if !ok {
        return Err(StateError::Corrupt("variable of a pending store"));
    }
    Ok(match tag {
        0 => Target::Var(k),
        1 => Target::List(k),
        2 => Target::ListElem(k, Expr::Num(get_real(r)?)),
        3 => Target::ListDim(k),
        4 => Target::Matrix(k),
        5 => Target::MatElem(k, Expr::Num(get_real(r)?), Expr::Num(get_real(r)?)),
        6 => Target::MatDim(k),
        7 => Target::Window(k),
        8 => Target::Equation(k),
        _ => return Err(StateError::Corrupt("target tag")),
    })
}

fn put_wait(w: &mut StateWriter, wait: &Wait) {
    match wait {
        Wait::Pause => w.u8(0),
        Wait::Menu {
            title,
            items,
            labels,
        } => {
            w.u8(1);
            put_value(w, title);
            w.u32(items.len() as u32);
            for (v, l) in items.iter().zip(labels) {
                put_value(w, v);
                w.u8(l[0]);
                w.u8(l[1]);
            }
        }
        Wait::Input(items) => {
            w.u8(2);
            w.u32(items.len() as u32);
            for (p, t) in items {
                match p {
                    Some(v) => {
                        w.u8(1);
                        put_value(w, v);
                    }
                    None => w.u8(0),
                }
                put_target(w, t);
            }
        }
        Wait::Get(t) => {
            w.u8(4);
            put_target(w, t);
        }
        Wait::Send(t) => {
            w.u8(5);
            put_target(w, t);
        }
        Wait::PrintScreen => w.u8(6),
        Wait::Table(t) => {
            w.u8(7);
            t.save(w);
        }
        Wait::GraphCursor(c) => {
            w.u8(8);
            w.u8(c.command);
            w.u8(c.row as u8);
            w.u8(c.col as u8);
            match c.corner {
                Some((r, col)) => {
                    w.bool(true);
                    w.u8(r as u8);
                    w.u8(col as u8);
                }
                None => w.bool(false),
            }
        }
    }
}

fn get_wait(r: &mut StateReader) -> Result<Wait, StateError> {
    Ok(match r.u8()? {
        0 => Wait::Pause,
        1 => {
            let title = get_value(r)?;
            let n = r.u32()? as usize;
            if !(1..=7).contains(&n) {
                return Err(StateError::Corrupt("Menu( item count"));
            }
            let mut items = Vec::with_capacity(n);
            let mut labels = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(get_value(r)?);
                labels.push([r.u8()?, r.u8()?]);
            }
            Wait::Menu {
                title,
                items,
                labels,
            }
        }
        2 => {
            let n = r.u32()? as usize;
            if !(1..=MAX_INPUT_ITEMS).contains(&n) {
                return Err(StateError::Corrupt("Input/Prompt item count"));
            }
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                let p = if r.bool()? { Some(get_value(r)?) } else { None };
                items.push((p, get_target(r)?));
            }
            Wait::Input(items)
        }
        4 => Wait::Get(get_target(r)?),
        5 => Wait::Send(get_target(r)?),
        6 => Wait::PrintScreen,
        7 => Wait::Table(crate::table::TableData::load(r)?),
        8 => {
            use crate::token::{TRACE, ZBOX, ZINTEGER, ZOOM_IN, ZOOM_OUT};
            let command = r.u8()?;
            let (row, col) = (i64::from(r.u8()?), i64::from(r.u8()?));
            let corner = if r.bool()? {
                Some((i64::from(r.u8()?), i64::from(r.u8()?)))
            } else {
                None
            };
            let ok = matches!(command, TRACE | ZBOX | ZOOM_IN | ZOOM_OUT | ZINTEGER)
                && row < 63
                && col < 95
                && corner.is_none_or(|(r, c)| r < 63 && c < 95);
            if !ok {
                return Err(StateError::Corrupt("graph cursor"));
            }
            Wait::GraphCursor(GraphCursor {
                command,
                row,
                col,
                corner,
            })
        }
        _ => return Err(StateError::Corrupt("wait tag")),
    })
}

impl Interp {
    /// Writes the whole interpreter state (programs, positions, open blocks, status).
    pub fn save(&self, w: &mut StateWriter) {
        w.u32(self.frames.len() as u32);
        for f in &self.frames {
            w.bytes(&f.name);
            w.bytes(&f.source);
            w.u32(f.pc as u32);
            w.u32(f.blocks.len() as u32);
            for b in &f.blocks {
                match b {
                    Block::Then => w.u8(0),
                    Block::For {
                        line,
                        var,
                        end,
                        step,
                    } => {
                        w.u8(1);
                        w.u32(*line as u32);
                        w.u8(*var);
                        put_real(w, *end);
                        put_real(w, *step);
                    }
                    Block::While { line } => {
                        w.u8(2);
                        w.u32(*line as u32);
                    }
                    Block::Repeat { line } => {
                        w.u8(3);
                        w.u32(*line as u32);
                    }
                }
            }
        }
        match &self.status {
            None | Some(Status::Idle) => w.u8(0),
            Some(Status::Running) => w.u8(1),
            Some(Status::Waiting(wait)) => {
                w.u8(2);
                put_wait(w, wait);
            }
            Some(Status::Done) => w.u8(3),
            Some(Status::Error(e)) => {
                w.u8(4);
                w.bytes(e.kind.to_string().as_bytes());
                w.bytes(&e.program);
                w.u32(e.offset);
            }
        }
    }

    /// Reads what [`Interp::save`] wrote.
    pub fn load(r: &mut StateReader) -> Result<Interp, StateError> {
        let n = r.u32()? as usize;
        if n > MAX_CALLS {
            return Err(StateError::Corrupt("call depth"));
        }
        let mut frames = Vec::with_capacity(n);
        for _ in 0..n {
            let name = r.bytes()?.to_vec();
            let source = r.bytes()?.to_vec();
            let mut f = Frame::new(&name, source);
            f.pc = (r.u32()? as usize).min(f.lines.len());
            let nb = r.u32()? as usize;
            if nb > MAX_BLOCKS {
                return Err(StateError::Corrupt("block depth"));
            }
            let line_ok = |l: u32| -> Result<usize, StateError> {
                let l = l as usize;
                if l < f.lines.len() {
                    Ok(l)
                } else {
                    Err(StateError::Corrupt("block line"))
                }
            };
            let mut blocks = Vec::with_capacity(nb);
            for _ in 0..nb {
                blocks.push(match r.u8()? {
                    0 => Block::Then,
                    1 => Block::For {
                        line: line_ok(r.u32()?)?,
                        var: match r.u8()? {
                            v @ LETTER_A..=THETA => v,
                            _ => return Err(StateError::Corrupt("For( variable")),
                        },
                        end: get_real(r)?,
                        step: get_real(r)?,
                    },
                    2 => Block::While {
                        line: line_ok(r.u32()?)?,
                    },
                    3 => Block::Repeat {
                        line: line_ok(r.u32()?)?,
                    },
                    _ => return Err(StateError::Corrupt("block tag")),
                });
            }
            f.blocks = blocks;
            frames.push(f);
        }
        let status = match r.u8()? {
            0 => Status::Idle,
            1 => Status::Running,
            2 => Status::Waiting(get_wait(r)?),
            3 => Status::Done,
            4 => {
                let text = String::from_utf8_lossy(r.bytes()?).to_string();
                let program = r.bytes()?.to_vec();
                let offset = r.u32()?;
                Status::Error(ProgramError {
                    kind: crate::value::ErrorKind::from_text(&text),
                    program,
                    offset,
                })
            }
            _ => return Err(StateError::Corrupt("status tag")),
        };
        if matches!(status, Status::Running | Status::Waiting(_)) && frames.is_empty() {
            return Err(StateError::Corrupt("a running program without a frame"));
        }
        Ok(Interp {
            frames,
            status: Some(status),
        })
    }
}
