//! Looking at a stopped calculator: the call stack, scopes and variables as the home screen
//! shows them, evaluation and stores.

use std::io::Write;

use serde_json::{json, Value as Json};
use tibasic::value::Value;
use tifiles::tokens::{detokenize, Spelling};

use super::{Session, FRAMES_PER_THREAD};

/// What a variables reference stands for.
#[derive(Clone, Debug)]
pub(super) enum VarRef {
    Reals,
    Lists,
    Matrices,
    /// `Y₁`…`Y₀`: their text.
    Equations,
    /// The window variables (63h tokens) and the statistics results (62h tokens).
    Tokens(u8),
    /// The elements of a list (1-6) or the rows of a matrix (0-4).
    List(u8),
    Matrix(u8),
}

impl<W: Write> Session<W> {
    pub(super) fn stack_trace(&mut self) -> Result<Json, String> {
        let (fw, _) = self.firmware()?;
        let frames = fw.call_stack();
        let first = self.cur as i64 * FRAMES_PER_THREAD + 1;
        let mut out = Vec::new();
        for (i, (program, offset)) in frames.iter().take(FRAMES_PER_THREAD as usize).enumerate() {
            let name = detokenize(program, Spelling::Ascii);
            let mut f = json!({"id": first + i as i64, "name": format!("prgm{name}"),
                "line": 0, "column": 0});
            if let Some(s) = self.source_of(program) {
                let (line, col) = s.position(*offset);
                f["line"] = json!(line);
                f["column"] = json!(col);
                f["source"] = s.dap();
            }
            out.push(f);
        }
        let total = out.len();
        Ok(json!({"stackFrames": out, "totalFrames": total}))
    }

    pub(super) fn scopes(&mut self) -> Result<Json, String> {
        // The references stay valid until the calculators run again; a calculator's scopes
        // are handed out once per stop.
        let first = match self
            .refs
            .iter()
            .position(|(s, r)| *s == self.cur && matches!(r, VarRef::Reals))
        {
            Some(i) => i as i64 + 1,
            None => {
                let first = self.refs.len() as i64 + 1;
                for r in [
                    VarRef::Reals,
                    VarRef::Lists,
                    VarRef::Matrices,
                    VarRef::Equations,
                    VarRef::Tokens(0x63),
                    VarRef::Tokens(0x62),
                ] {
                    self.new_ref(r);
                }
                first
            }
        };
        let names = [
            "Reals",
            "Lists",
            "Matrices",
            "Y-variables",
            "Window",
            "Statistics",
        ];
        let scopes: Vec<Json> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                json!({"name": n, "variablesReference": first + i as i64,
                "expensive": false})
            })
            .collect();
        Ok(json!({ "scopes": scopes }))
    }

    pub(super) fn new_ref(&mut self, r: VarRef) -> i64 {
        self.refs.push((self.cur, r));
        self.refs.len() as i64
    }

    pub(super) fn variables(&mut self, args: &Json) -> Result<Json, String> {
        let r = args["variablesReference"].as_i64().unwrap_or(0);
        let which = self
            .refs
            .get(r.saturating_sub(1).max(0) as usize)
            .map(|(_, r)| r.clone())
            .ok_or("no such variables reference")?;
        let mut vars = Vec::new();
        match which {
            VarRef::Reals => {
                let mut names: Vec<String> = ('A'..='Z').map(|c| c.to_string()).collect();
                names.push("θ".into());
                names.push("Ans".into());
                let (fw, hw) = self.firmware()?;
                for n in names {
                    if let Ok(v) = fw.evaluate(hw, &n) {
                        vars.push(json!({"name": n, "value": fw.show_value(&v),
                            "evaluateName": n, "variablesReference": 0}));
                    }
                }
            }
            VarRef::Lists => {
                for k in 1..=6u8 {
                    let name = format!("L{k}");
                    let shown = {
                        let (fw, hw) = self.firmware()?;
                        fw.evaluate(hw, &name).ok().map(|v| (fw.show_value(&v), v))
                    };
                    if let Some((shown, v)) = shown {
                        let n = match &v {
                            Value::List(l) => l.len(),
                            _ => 0,
                        };
                        let child = self.new_ref(VarRef::List(k));
                        vars.push(json!({"name": name, "value": shown, "evaluateName": name,
                            "variablesReference": child, "indexedVariables": n}));
                    }
                }
            }
            VarRef::Matrices => {
                for k in 0..5u8 {
                    let name = format!("[{}]", (b'A' + k) as char);
                    let shown = {
                        let (fw, hw) = self.firmware()?;
                        fw.evaluate(hw, &name).ok().map(|v| fw.show_value(&v))
                    };
                    if let Some(shown) = shown {
                        let child = self.new_ref(VarRef::Matrix(k));
                        vars.push(json!({"name": name, "value": shown, "evaluateName": name,
                            "variablesReference": child}));
                    }
                }
            }
            VarRef::Equations => {
                let calc = &self.sides.get(self.cur).ok_or("nothing is launched")?.calc;
                for i in 0..10u8 {
                    // Y₁…Y₉ then Y₀: second bytes 10h-19h.
                    if let Some((tokens, on)) = tibasic::os::equation_in(calc.ram(), 0x10 + i) {
                        let n = if i == 9 { 0 } else { i + 1 };
                        vars.push(json!({"name": format!("Y{n}"),
                            "value": format!("{}{}", detokenize(&tokens, Spelling::Ascii),
                                if on { "" } else { "  (off)" }),
                            "variablesReference": 0}));
                    }
                }
            }
            VarRef::Tokens(prefix) => {
                let names: Vec<(&str, &str)> = tifiles::tokens::table()
                    .tokens()
                    .iter()
                    .filter(|t| t.bytes().len() == 2 && t.bytes()[0] == prefix)
                    .filter(|t| !t.ascii.contains("RegEQ"))
                    .map(|t| (t.ascii, t.display))
                    .collect();
                let (fw, hw) = self.firmware()?;
                for (ascii, display) in names {
                    if let Ok(v @ Value::Real(_)) = fw.evaluate(hw, ascii) {
                        vars.push(json!({"name": display, "value": fw.show_value(&v),
                            "evaluateName": ascii, "variablesReference": 0}));
                    }
                }
            }
            VarRef::List(k) => {
                let (fw, hw) = self.firmware()?;
                if let Ok(Value::List(l)) = fw.evaluate(hw, &format!("L{k}")) {
                    for (i, x) in l.iter().enumerate() {
                        let name = format!("L{k}({})", i + 1);
                        vars.push(json!({"name": format!("{}", i + 1),
                            "value": fw.show_value(&Value::Real(*x)),
                            "evaluateName": name, "variablesReference": 0}));
                    }
                }
            }
            VarRef::Matrix(k) => {
                let (fw, hw) = self.firmware()?;
                let m = format!("[{}]", (b'A' + k) as char);
                if let Ok(Value::Matrix(mx)) = fw.evaluate(hw, &m) {
                    for (i, row) in mx.data.chunks(mx.cols.max(1)).enumerate() {
                        let shown: Vec<String> = row
                            .iter()
                            .map(|x| fw.show_value(&Value::Real(*x)))
                            .collect();
                        vars.push(json!({"name": format!("row {}", i + 1),
                            "value": format!("[{}]", shown.join(" ")), "variablesReference": 0}));
                    }
                }
            }
        }
        Ok(json!({ "variables": vars }))
    }

    pub(super) fn evaluate(&mut self, args: &Json) -> Result<Json, String> {
        let expr = args["expression"]
            .as_str()
            .ok_or("evaluate needs an expression")?;
        let (fw, hw) = self.firmware()?;
        let v = fw.evaluate(hw, expr)?;
        Ok(json!({"result": fw.show_value(&v), "variablesReference": 0}))
    }

    pub(super) fn set_variable(&mut self, args: &Json) -> Result<Json, String> {
        let r = args["variablesReference"].as_i64().unwrap_or(0);
        let name = args["name"].as_str().ok_or("setVariable needs a name")?;
        let value = args["value"].as_str().ok_or("setVariable needs a value")?;
        let target = match self.refs.get(r.saturating_sub(1).max(0) as usize) {
            Some((_, VarRef::List(k))) => format!("L{k}({name})"),
            _ => name.to_string(),
        };
        let (fw, hw) = self.firmware()?;
        let v = fw.store_variable(hw, &target, value)?;
        Ok(json!({"value": fw.show_value(&v)}))
    }

    pub(super) fn source(&mut self, args: &Json) -> Result<Json, String> {
        let r = args["sourceReference"]
            .as_i64()
            .or_else(|| args["source"]["sourceReference"].as_i64())
            .ok_or("source needs a sourceReference")?;
        let s = self
            .sources
            .iter()
            .find(|s| s.reference == r)
            .ok_or("no such source")?;
        Ok(json!({"content": detokenize(&s.tokens, Spelling::Ascii)}))
    }
}
