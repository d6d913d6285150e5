//! The firmware's side of the debugger (`crate::debug`): the look before each statement, the
//! stop when an error screen would show, and evaluation and stores for the front end, with
//! no side effect where none is asked for.

use ti82_machine::Hardware;

use super::BasicFirmware;
use crate::ast::{Stmt, Target};
use crate::conv::Form;
use crate::debug::{log_parts, Debug, StopReason};
use crate::eval::eval;
use crate::interp::{ProgramError, Status, Sys};
use crate::os::value_lines;
use crate::parse::compile;
use crate::value::{ErrorKind, Value};

/// One program position: its name (token bytes) and a statement's byte offset.
pub type Position = (Vec<u8>, u32);

impl BasicFirmware {
    /// Attaches a debugger: from now on the firmware looks at it before every statement.
    pub fn attach_debugger(&mut self) {
        if self.debug.is_none() {
            self.debug = Some(Box::default());
        }
    }

    /// Detaches it: the program runs on as if nothing had been attached.
    pub fn detach_debugger(&mut self) {
        self.debug = None;
    }

    /// The attached debugger's state.
    pub fn debugger(&mut self) -> Option<&mut Debug> {
        self.debug.as_deref_mut()
    }

    pub(super) fn debug_stopped(&self) -> bool {
        self.debug.as_ref().is_some_and(|d| d.stopped.is_some())
    }

    /// The call stack, innermost first. Stopped at an error (the programs have ended), the
    /// failing statement alone.
    pub fn call_stack(&self) -> Vec<Position> {
        let mut frames = self.interp.frames();
        if frames.is_empty() {
            if let (Some(StopReason::Error(_)), Some(err)) = (
                self.debug.as_ref().and_then(|d| d.stopped.as_ref()),
                &self.last_error,
            ) {
                frames.push((err.program.clone(), err.offset));
            }
        }
        frames.reverse();
        frames
    }

    /// Whether a program is running or waiting (not ended).
    pub fn program_running(&self) -> bool {
        matches!(
            self.interp.status_ref(),
            Status::Running | Status::Waiting(_)
        )
    }

    /// A value as the home screen shows it (every line of a list or matrix, joined by a
    /// space).
    pub fn show_value(&self, v: &Value) -> String {
        value_lines(v, self.st.modes.format(), Form::Decimal)
            .into_iter()
            .map(|(codes, _)| crate::font::decode(&codes).trim().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Evaluates TI-BASIC `text` (one expression) in the calculator's own evaluator, then
    /// puts back everything evaluation may have touched (RAM, the OS's state, the clock), so
    /// neither `Ans`, nor a variable, nor the random generator changes.
    pub fn evaluate(&mut self, hw: &mut Hardware, text: &str) -> Result<Value, String> {
        let tokens = tifiles::tokens::tokenize(text).map_err(|e| e.to_string())?;
        let lines = compile(&tokens);
        let expr = match lines.as_slice() {
            [line] => match &line.stmt {
                Stmt::Expr(e) => e.clone(),
                _ => return Err(format!("{text:?} is not an expression")),
            },
            _ => return Err(format!("{text:?} is not one expression")),
        };
        let ram = hw.mem.ram().to_vec();
        let st = self.st.clone();
        let now = hw.now;
        let result = {
            let mut os = Self::os(&mut self.st, hw);
            eval(&mut os, &expr)
        };
        hw.mem.ram_mut().copy_from_slice(&ram);
        self.st = st;
        hw.now = now;
        result.map_err(|k| format!("ERR:{}", k.ti_name()))
    }

    /// Stores the value of `value` (an expression, evaluated without side effect) into the
    /// variable `name` (`A`, `L1(2)`, `L3`, `[A](1,2)`...), as `value→name` would; returns
    /// the value stored.
    pub fn store_variable(
        &mut self,
        hw: &mut Hardware,
        name: &str,
        value: &str,
    ) -> Result<Value, String> {
        let v = self.evaluate(hw, value)?;
        let tokens = tifiles::tokens::tokenize(&format!("0→{name}")).map_err(|e| e.to_string())?;
        let target: Target = match compile(&tokens).as_slice() {
            [line] => match &line.stmt {
                Stmt::Store(_, t) => t.clone(),
                _ => return Err(format!("{name:?} is not a variable")),
            },
            _ => return Err(format!("{name:?} is not a variable")),
        };
        let now = hw.now;
        let stored = {
            let mut os = Self::os(&mut self.st, hw);
            os.store(&target, v.clone())
        };
        hw.now = now;
        self.st.dirty = true;
        stored.map_err(|k: ErrorKind| format!("ERR:{}", k.ti_name()))?;
        Ok(v)
    }

    /// The look before a statement: true when execution must stop there.
    pub(super) fn debug_stop(&mut self, hw: &mut Hardware) -> bool {
        let Some(d) = self.debug.as_deref_mut() else {
            return false;
        };
        if d.stopped.is_some() {
            return true;
        }
        if d.take_resumed() {
            return false;
        }
        // Attached with nothing to look for: as cheap as detached.
        if d.idle() {
            return false;
        }
        let Some((program, offset)) = self.interp.statement() else {
            return false;
        };
        let at = d.at(program, offset);
        let mut reason = d.step_stop(self.interp.depth());
        // Watched variables (data breakpoints): compared before each statement.
        if reason.is_none() && !d.watches.is_empty() {
            let names: Vec<String> = d.watches.iter().map(|w| w.name.clone()).collect();
            for (i, name) in names.into_iter().enumerate() {
                let now = self.evaluate(hw, &name).ok().map(|v| self.show_value(&v));
                let Some(d) = self.debug.as_deref_mut() else {
                    return false;
                };
                let w = &mut d.watches[i];
                if w.last != now && reason.is_none() {
                    reason = Some(StopReason::Data {
                        name: w.name.clone(),
                        old: w.last.clone().unwrap_or_else(|| "undefined".into()),
                        new: now.clone().unwrap_or_else(|| "undefined".into()),
                    });
                }
                w.last = now;
            }
        }
        {
            let mut ids = Vec::new();
            for i in at {
                let Some(bp) = self.debug.as_ref().map(|d| d.breakpoints[i].clone()) else {
                    return false;
                };
                if let Some(cond) = &bp.condition {
                    match self.evaluate(hw, cond).and_then(|v| {
                        v.real()
                            .map_err(|k| format!("ERR:{}", k.ti_name()))
                            .map(|r| !r.is_zero())
                    }) {
                        Ok(true) => {}
                        Ok(false) => continue,
                        Err(e) => {
                            // A condition that fails stops, saying why (as debuggers do).
                            if let Some(d) = self.debug.as_deref_mut() {
                                d.output
                                    .push(format!("breakpoint condition {cond:?}: {e}\n"));
                            }
                        }
                    }
                }
                let Some(d) = self.debug.as_deref_mut() else {
                    return false;
                };
                if !d.hit(i) {
                    continue;
                }
                match &bp.log {
                    Some(msg) => {
                        let line = self.log_line(hw, msg);
                        if let Some(d) = self.debug.as_deref_mut() {
                            d.output.push(line);
                        }
                    }
                    None => ids.push(bp.id),
                }
            }
            if reason.is_none() && !ids.is_empty() {
                reason = Some(StopReason::Breakpoint(ids));
            }
        }
        match (reason, self.debug.as_deref_mut()) {
            (Some(r), Some(d)) => {
                d.stopped = Some(r);
                true
            }
            _ => false,
        }
    }

    /// A logpoint's message with its `{expr}` parts evaluated.
    fn log_line(&mut self, hw: &mut Hardware, msg: &str) -> String {
        let mut out = String::new();
        for (is_expr, part) in log_parts(msg) {
            if is_expr {
                match self.evaluate(hw, &part) {
                    Ok(v) => out.push_str(&self.show_value(&v)),
                    Err(e) => out.push_str(&format!("<{part}: {e}>")),
                }
            } else {
                out.push_str(&part);
            }
        }
        out.push('\n');
        out
    }

    /// An error screen is about to show: a debugger that breaks on errors stops here.
    pub(super) fn debug_error(&mut self, err: &ProgramError) {
        if let Some(d) = self.debug.as_deref_mut() {
            if d.break_on_error {
                d.stopped = Some(StopReason::Error(format!("ERR:{}", err.kind.ti_name())));
            }
        }
    }
}
