//! Host keys to TI-82 keys and front-end commands, shared by the window and the terminal.
//!
//! Host keys have names (`"F12"`, `"Shift"`, `"A"`, `"NumPadPlus"`, ... see [`HOST_KEYS`]);
//! each front end turns its own key events into these names. A binding is a TI-82 button
//! (held as long as the host key) or a front-end [`Command`]. Typed characters (the terminal,
//! which sees characters rather than keys) may also map to a short key script, such as
//! `A` → `ALPHA MATH`. The config file overrides both tables (see `docs/frontend.md`).

use std::collections::BTreeMap;

use crate::script::{self, Button, Step, ALPHA_LETTERS};

/// Something the front end does rather than the calculator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Help,
    Screenshot,
    SkinScreenshot,
    Gif,
    Turbo,
    Eval,
    BotNewGame,
    Quit,
}

impl Command {
    pub const ALL: [Command; 8] = [
        Command::Help,
        Command::Screenshot,
        Command::SkinScreenshot,
        Command::Gif,
        Command::Turbo,
        Command::Eval,
        Command::BotNewGame,
        Command::Quit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Command::Help => "help",
            Command::Screenshot => "screenshot",
            Command::SkinScreenshot => "skin-screenshot",
            Command::Gif => "gif",
            Command::Turbo => "turbo",
            Command::Eval => "eval",
            Command::BotNewGame => "bot-new-game",
            Command::Quit => "quit",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Command::Help => "show or hide this help",
            Command::Screenshot => "save the LCD as a PNG",
            Command::SkinScreenshot => "save the whole window as a PNG",
            Command::Gif => "start / stop recording the LCD as an animated GIF",
            Command::Turbo => "switch between the chosen speed and turbo",
            Command::Eval => "show / hide the engine's Mancala evaluation",
            Command::BotNewGame => "the link bot (--link bot) resigns and waits for a new game",
            Command::Quit => "save the state and quit",
        }
    }
}

/// What a host key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Button(Button),
    Command(Command),
}

impl Binding {
    /// A TI-82 key name (as printed, or an alias), `ON`, or a command name.
    pub fn parse(s: &str) -> Option<Binding> {
        let t = s.trim();
        if let Some(c) = Command::ALL
            .iter()
            .find(|c| c.name().eq_ignore_ascii_case(t))
        {
            return Some(Binding::Command(*c));
        }
        Button::from_name(t).map(Binding::Button)
    }

    pub fn describe(self) -> String {
        match self {
            Binding::Button(b) => b.name().to_string(),
            Binding::Command(c) => c.name().to_string(),
        }
    }
}

/// The host key names a binding may use.
pub const HOST_KEYS: &[&str] = &[
    "Up",
    "Down",
    "Left",
    "Right",
    "Enter",
    "Backspace",
    "Delete",
    "Escape",
    "Tab",
    "Space",
    "Insert",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Shift",
    "Ctrl",
    "Alt",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
    "A",
    "B",
    "C",
    "D",
    "E",
    "F",
    "G",
    "H",
    "I",
    "J",
    "K",
    "L",
    "M",
    "N",
    "O",
    "P",
    "Q",
    "R",
    "S",
    "T",
    "U",
    "V",
    "W",
    "X",
    "Y",
    "Z",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "Comma",
    "Period",
    "Minus",
    "Equal",
    "Slash",
    "Semicolon",
    "Apostrophe",
    "Backquote",
    "Backslash",
    "LeftBracket",
    "RightBracket",
    "NumPad0",
    "NumPad1",
    "NumPad2",
    "NumPad3",
    "NumPad4",
    "NumPad5",
    "NumPad6",
    "NumPad7",
    "NumPad8",
    "NumPad9",
    "NumPadDot",
    "NumPadPlus",
    "NumPadMinus",
    "NumPadAsterisk",
    "NumPadSlash",
    "NumPadEnter",
];

/// The default host key bindings: (host key, binding name).
pub const DEFAULT_KEYS: &[(&str, &str)] = &[
    ("F1", "help"),
    ("F2", "Y="),
    ("F3", "WINDOW"),
    ("F4", "ZOOM"),
    ("F5", "TRACE"),
    ("F6", "GRAPH"),
    ("F7", "screenshot"),
    ("F8", "skin-screenshot"),
    ("F9", "gif"),
    ("F10", "turbo"),
    ("F11", "eval"),
    ("PageDown", "bot-new-game"),
    ("F12", "ON"),
    ("Up", "UP"),
    ("Down", "DOWN"),
    ("Left", "LEFT"),
    ("Right", "RIGHT"),
    ("Enter", "ENTER"),
    ("NumPadEnter", "ENTER"),
    ("Backspace", "DEL"),
    ("Delete", "CLEAR"),
    ("Escape", "MODE"),
    ("Shift", "2nd"),
    ("Tab", "2nd"),
    ("Insert", "ALPHA"),
    ("Ctrl", "ALPHA"),
    ("Alt", "ALPHA"),
    ("0", "0"),
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("4", "4"),
    ("5", "5"),
    ("6", "6"),
    ("7", "7"),
    ("8", "8"),
    ("9", "9"),
    ("NumPad0", "0"),
    ("NumPad1", "1"),
    ("NumPad2", "2"),
    ("NumPad3", "3"),
    ("NumPad4", "4"),
    ("NumPad5", "5"),
    ("NumPad6", "6"),
    ("NumPad7", "7"),
    ("NumPad8", "8"),
    ("NumPad9", "9"),
    ("Period", "."),
    ("NumPadDot", "."),
    ("Comma", ","),
    ("NumPadPlus", "+"),
    ("Equal", "+"),
    ("NumPadMinus", "−"),
    ("Minus", "−"),
    ("NumPadAsterisk", "×"),
    ("Apostrophe", "×"),
    ("NumPadSlash", "÷"),
    ("Slash", "÷"),
    ("Backquote", "(−)"),
    ("LeftBracket", "("),
    ("RightBracket", ")"),
    ("Semicolon", "STO▸"),
    ("E", "^"),
    ("Q", "x²"),
    ("I", "x⁻¹"),
    ("G", "LOG"),
    ("N", "LN"),
    ("O", "STO▸"),
    ("S", "SIN"),
    ("C", "COS"),
    ("T", "TAN"),
    ("M", "MATH"),
    ("K", "MATRX"),
    ("P", "PRGM"),
    ("V", "VARS"),
    ("D", "STAT"),
    ("X", "X,T,θ"),
];

/// Default typed-character bindings (terminal): character → key script. Lower-case letters
/// and digits fall back to the host key table.
pub fn default_chars() -> Vec<(char, String)> {
    let mut v: Vec<(char, String)> = [
        ('+', "+"),
        ('-', "−"),
        ('*', "×"),
        ('/', "÷"),
        ('^', "^"),
        ('(', "("),
        (')', ")"),
        (',', ","),
        ('.', "."),
        ('~', "(−)"),
        ('=', "STO▸"),
        ('<', "2nd STO▸"),
    ]
    .iter()
    .map(|(c, s)| (*c, s.to_string()))
    .collect();
    for &(c, key) in ALPHA_LETTERS {
        if c.is_ascii_uppercase() || c == '"' || c == ':' || c == '?' {
            v.push((c, format!("ALPHA {key}")));
        }
    }
    v
}

/// The host-key and typed-character tables in force.
#[derive(Clone, Debug)]
pub struct KeyMap {
    pub keys: BTreeMap<String, Binding>,
    pub chars: BTreeMap<char, Vec<Step>>,
}

impl Default for KeyMap {
    fn default() -> Self {
        let mut keys = BTreeMap::new();
        for (host, b) in DEFAULT_KEYS {
            let binding = Binding::parse(b).unwrap_or_else(|| unreachable!("default binding {b}"));
            keys.insert((*host).to_string(), binding);
        }
        let mut chars = BTreeMap::new();
        for (c, s) in default_chars() {
            let steps = script::parse(&s).unwrap_or_else(|e| unreachable!("default char {c}: {e}"));
            chars.insert(c, steps);
        }
        KeyMap { keys, chars }
    }
}

/// The canonical spelling of a host key name, if it is one.
pub fn host_key(name: &str) -> Option<&'static str> {
    HOST_KEYS
        .iter()
        .find(|k| k.eq_ignore_ascii_case(name.trim()))
        .copied()
}

impl KeyMap {
    /// Applies overrides: host key → binding (`"none"` removes it), char → key script.
    pub fn apply(
        &mut self,
        keys: &BTreeMap<String, String>,
        chars: &BTreeMap<String, String>,
    ) -> Result<(), String> {
        for (host, b) in keys {
            let h = host_key(host).ok_or_else(|| {
                format!(
                    "[keys]: unknown host key {host:?} (known: {})",
                    HOST_KEYS.join(" ")
                )
            })?;
            if b.trim().eq_ignore_ascii_case("none") {
                self.keys.remove(h);
                continue;
            }
            let binding = Binding::parse(b).ok_or_else(|| {
                format!("[keys] {host}: {b:?} is neither a TI-82 key nor a command")
            })?;
            self.keys.insert(h.to_string(), binding);
        }
        for (c, s) in chars {
            let mut it = c.chars();
            let (Some(ch), None) = (it.next(), it.next()) else {
                return Err(format!("[chars]: {c:?} is not a single character"));
            };
            let steps = script::parse(s).map_err(|e| format!("[chars] {c:?}: {e}"))?;
            self.chars.insert(ch, steps);
        }
        Ok(())
    }

    pub fn binding(&self, host: &str) -> Option<Binding> {
        self.keys.get(host).copied()
    }

    /// What a typed character does: its own script, or the host key of the same name
    /// (letters, digits, punctuation as on a US keyboard).
    pub fn char_steps(&self, c: char) -> Option<Vec<Step>> {
        if let Some(s) = self.chars.get(&c) {
            return Some(s.clone());
        }
        let host = char_host_key(c)?;
        match self.binding(host)? {
            Binding::Button(b) => Some(vec![Step::Tap(b)]),
            Binding::Command(_) => None,
        }
    }

    /// The command a typed character stands for through the host key table, if any.
    pub fn char_command(&self, c: char) -> Option<Command> {
        if self.chars.contains_key(&c) {
            return None;
        }
        match self.binding(char_host_key(c)?)? {
            Binding::Command(cmd) => Some(cmd),
            Binding::Button(_) => None,
        }
    }

    /// Help text: one line per binding, grouped.
    pub fn help_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut cmds: Vec<String> = Vec::new();
        let mut ti: BTreeMap<String, Vec<&str>> = BTreeMap::new();
        for (host, b) in &self.keys {
            match b {
                Binding::Command(c) => cmds.push(format!("{host:>6}  {}", c.describe())),
                Binding::Button(btn) => ti.entry(btn.name().to_string()).or_default().push(host),
            }
        }
        cmds.sort();
        out.extend(cmds);
        let mut line = String::new();
        for (name, hosts) in ti {
            let item = format!("{name}={}  ", hosts.join("/"));
            if line.chars().count() + item.chars().count() > 60 {
                out.push(line.trim_end().to_string());
                line.clear();
            }
            line.push_str(&item);
        }
        if !line.is_empty() {
            out.push(line.trim_end().to_string());
        }
        out
    }
}

/// The host key a typed character comes from on a US keyboard (letters and digits as
/// themselves).
pub fn char_host_key(c: char) -> Option<&'static str> {
    let name = match c {
        ',' => "Comma",
        '.' => "Period",
        '-' => "Minus",
        '=' => "Equal",
        '/' => "Slash",
        ';' => "Semicolon",
        '\'' => "Apostrophe",
        '`' => "Backquote",
        '\\' => "Backslash",
        '[' => "LeftBracket",
        ']' => "RightBracket",
        ' ' => "Space",
        c if c.is_ascii_alphanumeric() => {
            let up = c.to_ascii_uppercase().to_string();
            return host_key(&up);
        }
        _ => return None,
    };
    host_key(name)
}

/// Labels printed around a key: (2nd function, ALPHA letter). From the TI-82 keyboard; a
/// few 2nd labels are left blank where we are not sure of them (see `docs/frontend.md`).
pub fn key_labels(name: &str) -> (&'static str, &'static str) {
    let second = match name {
        "Y=" => "STAT PLOT",
        "WINDOW" => "TblSet",
        "ZOOM" => "FORMAT",
        "TRACE" => "CALC",
        "GRAPH" => "TABLE",
        "MODE" => "QUIT",
        "DEL" => "INS",
        "ALPHA" => "A-LOCK",
        "X,T,θ" => "LINK",
        "STAT" => "LIST",
        "MATH" => "TEST",
        "MATRX" => "ANGLE",
        "PRGM" => "DRAW",
        "VARS" => "Y-VARS",
        "x⁻¹" => "ABS",
        "SIN" => "SIN⁻¹",
        "COS" => "COS⁻¹",
        "TAN" => "TAN⁻¹",
        "^" => "π",
        "x²" => "√",
        "," => "EE",
        "(" => "{",
        ")" => "}",
        "×" => "[",
        "−" => "]",
        "+" => "MEM",
        "LOG" => "10^",
        "LN" => "e^",
        "STO▸" => "RCL",
        "1" => "L1",
        "2" => "L2",
        "3" => "L3",
        "4" => "L4",
        "5" => "L5",
        "6" => "L6",
        "(−)" => "ANS",
        "ENTER" => "ENTRY",
        "ON" => "OFF",
        _ => "",
    };
    let alpha = ALPHA_LETTERS
        .iter()
        .find(|(_, k)| *k == name)
        .map(|(c, _)| match c {
            'θ' => "θ",
            '"' => "\"",
            ' ' => "␣",
            ':' => ":",
            '?' => "?",
            c => &"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(*c as usize - 'A' as usize)..][..1],
        })
        .unwrap_or("");
    (second, alpha)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_and_letters_are_keys() {
        let m = KeyMap::default();
        assert_eq!(
            m.binding("F12"),
            Some(Binding::Button(Button::On)),
            "F12 is ON"
        );
        for (_, k) in ALPHA_LETTERS {
            assert!(Button::from_name(k).is_some(), "{k}");
        }
        assert_eq!(key_labels("MATH"), ("TEST", "A"));
        assert_eq!(key_labels("3"), ("L3", "θ"));
    }
}
