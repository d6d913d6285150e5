//! Key scripts: what `--keys` (and the terminal's typed characters) press, and the players
//! that press them in emulated time: [`Player`] (scripts, `--run`, waits on the firmware's
//! state, [`Until`]) and [`KeyHolds`] (the window's held keys).
//!
//! A script is a list of words separated by white space; `#` starts a comment to the end of
//! the line. Words (case-insensitive):
//!
//! | word | meaning |
//! |---|---|
//! | `ENTER`, `2nd`, `X,T,θ`, `STO>`, `(-)`, `ON` ... | tap the key: press, hold [`Timing::hold_ms`], release, wait [`Timing::gap_ms`] |
//! | `NAME*n` | tap the key `n` times (`RIGHT*3`) |
//! | `WAIT n` | run `n` emulated milliseconds |
//! | `HOLD NAME` | press the key and keep it down |
//! | `RELEASE NAME` | release a held key |
//! | `READY` | wait until the calculator waits for a key ([`Until::KeyWait`], at most a minute) |
//! | `DONE` | wait until no program runs ([`Until::ProgramDone`], at most a minute) |
//!
//! | `QUIT`, `STAT PLOT`, `L1`, `{` ... | a second function by its printed (blue) name: 2nd, then its key (`2nd QUIT` is the same) |
//! | `"HELLO 2"` | the keys that type the text: ALPHA and the key for a letter, θ, space, `"`, `:`, `?`; the key for a digit or an operator; 2nd and the key for `{ } [ ] π √` |
//!
//! Key names are the ones printed on the keys (`ti82_machine::Key::from_name`, with its ASCII
//! aliases such as `-`, `*`, `/`, `STO>`, `X,T,THETA`, `2ND`) plus `ON`; second functions are in
//! `SECOND_FUNCTIONS`. An unknown word is an error that names the nearest known word.

use std::collections::VecDeque;
use std::fmt;

use anyhow::{bail, Context, Result};
use ti82_machine::{Calc, Key, CLOCK_HZ, FRAME_T};

/// A button: a key of the matrix, or ON (which is not in the matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    Key(Key),
    On,
}

impl Button {
    /// Looks a button up by its printed name (or an alias), case-insensitively.
    pub fn from_name(name: &str) -> Option<Button> {
        if name.trim().eq_ignore_ascii_case("ON") {
            Some(Button::On)
        } else {
            Key::from_name(name).map(Button::Key)
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Button::Key(k) => k.name(),
            Button::On => "ON",
        }
    }

    /// Presses or releases this button on `calc`.
    pub fn set(self, calc: &mut Calc, down: bool) {
        match self {
            Button::Key(k) => calc.set_key(k, down),
            Button::On => calc.set_on(down),
        }
    }
}

/// One step of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Tap(Button),
    Hold(Button),
    Release(Button),
    /// Emulated milliseconds.
    Wait(u64),
    /// Until the firmware says so (`READY`, `DONE`, `HALTED`), at most
    /// [`SCRIPT_UNTIL_LIMIT_MS`].
    Until(Until),
    /// The same with its own limit in emulated ms (`READY 2000ms`): past it the script goes on
    /// without a message (the limit is the script's expectation, not a failure).
    UntilWithin(Until, u64),
}

/// The longest a script's `READY` or `DONE` waits, in emulated ms.
pub const SCRIPT_UNTIL_LIMIT_MS: u64 = 60_000;

/// A script error: which word (1-based line and column) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "key script, line {} column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ScriptError {}

/// Most repeats one word may ask for (keeps a typo like `RIGHT*30000000` from hanging a run).
pub const MAX_REPEAT: u64 = 10_000;
/// Longest single `WAIT`, in emulated ms (one emulated hour).
pub const MAX_WAIT_MS: u64 = 3_600_000;
/// Most steps one script may expand to (every `NAME*n` counted): a script is data, and a long
/// one must not reserve gigabytes.
pub const MAX_STEPS: usize = 1_000_000;

/// Splits a script into words with their 1-based line and column.
fn words(src: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    for (ln, line) in src.lines().enumerate() {
        let line = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        let mut start = None;
        let mut quoted = false;
        for (i, ch) in line
            .char_indices()
            .chain(std::iter::once((line.len(), ' ')))
        {
            // A quoted string is one word, spaces and all, up to its closing quote.
            if ch == '"' && (quoted || start.is_none()) {
                quoted = !quoted;
            }
            if quoted && i < line.len() {
                start.get_or_insert(i);
                continue;
            }
            if ch.is_whitespace() {
                if let Some(s) = start.take() {
                    let col = line[..s].chars().count() + 1;
                    out.push((ln + 1, col, &line[s..i]));
                }
            } else if start.is_none() {
                start = Some(i);
            }
        }
    }
    out
}

/// Parses a key script.
pub fn parse(src: &str) -> Result<Vec<Step>, ScriptError> {
    let ws = words(src);
    let mut steps = Vec::new();
    let mut i = 0;
    let err = |w: &(usize, usize, &str), message: String| ScriptError {
        line: w.0,
        column: w.1,
        message,
    };
    while i < ws.len() {
        let w = ws[i];
        let upper = w.2.to_ascii_uppercase();
        match upper.as_str() {
            "READY" | "DONE" | "HALTED" => {
                let until = match upper.as_str() {
                    "READY" => Until::KeyWait,
                    "DONE" => Until::ProgramDone,
                    _ => Until::Halted,
                };
                // An optional limit: the next word, in milliseconds with the `ms` suffix (a
                // bare number would read as digit keys).
                let limit = ws.get(i + 1).and_then(|a| {
                    let n = a.2.to_ascii_lowercase();
                    n.strip_suffix("ms")?.parse::<u64>().ok().map(|ms| (a, ms))
                });
                match limit {
                    Some((arg, ms)) => {
                        if ms > SCRIPT_UNTIL_LIMIT_MS {
                            return Err(err(
                                arg,
                                format!(
                                    "{upper} {ms}ms is longer than the limit of \
                                     {SCRIPT_UNTIL_LIMIT_MS} ms"
                                ),
                            ));
                        }
                        steps.push(Step::UntilWithin(until, ms));
                        i += 2;
                    }
                    None => {
                        steps.push(Step::Until(until));
                        i += 1;
                    }
                }
            }
            "WAIT" | "HOLD" | "RELEASE" => {
                let Some(arg) = ws.get(i + 1) else {
                    return Err(err(&w, format!("{upper} needs an argument")));
                };
                if upper == "WAIT" {
                    let ms = arg.2.trim_end_matches("ms").parse::<u64>().map_err(|_| {
                        err(
                            arg,
                            format!("WAIT takes emulated milliseconds, not {:?}", arg.2),
                        )
                    })?;
                    if ms > MAX_WAIT_MS {
                        return Err(err(
                            arg,
                            format!("WAIT {ms} is longer than the limit of {MAX_WAIT_MS} ms"),
                        ));
                    }
                    steps.push(Step::Wait(ms));
                } else {
                    let b = Button::from_name(arg.2)
                        .ok_or_else(|| err(arg, format!("unknown key {:?}", arg.2)))?;
                    steps.push(if upper == "HOLD" {
                        Step::Hold(b)
                    } else {
                        Step::Release(b)
                    });
                }
                i += 2;
            }
            _ => {
                // `STAT PLOT`: a second function's name in two words.
                let two = ws
                    .get(i + 1)
                    .map(|n| format!("{} {}", w.2, n.2))
                    .filter(|t| second_function(t).is_some());
                let (word, used) = match &two {
                    Some(t) => (t.as_str(), 2),
                    None => (w.2, 1),
                };
                let (buttons, n) = key_word(word).map_err(|m| err(&w, m))?;
                // `2nd QUIT`: the 2nd is the second function's own.
                if buttons.first() == Some(&Button::Key(Key::Second))
                    && steps.last() == Some(&Step::Tap(Button::Key(Key::Second)))
                    && second_function(word.rsplit_once('*').map_or(word, |p| p.0)).is_some()
                {
                    steps.pop();
                }
                if steps.len() as u64 + n * buttons.len() as u64 > MAX_STEPS as u64 {
                    return Err(err(
                        &w,
                        format!("the script is longer than the limit of {MAX_STEPS} steps"),
                    ));
                }
                for _ in 0..n {
                    steps.extend(buttons.iter().map(|&b| Step::Tap(b)));
                }
                i += used;
            }
        }
    }
    Ok(steps)
}

/// Second functions by their printed (blue) names, with ASCII spellings: the key they are
/// the second function of (pressed after 2nd). From the TI-82 keyboard.
const SECOND_FUNCTIONS: &[(&str, Button)] = &[
    ("STAT PLOT", Button::Key(Key::YEquals)),
    ("STATPLOT", Button::Key(Key::YEquals)),
    ("TblSet", Button::Key(Key::Window)),
    ("FORMAT", Button::Key(Key::Zoom)),
    ("CALC", Button::Key(Key::Trace)),
    ("TABLE", Button::Key(Key::Graph)),
    ("QUIT", Button::Key(Key::Mode)),
    ("INS", Button::Key(Key::Del)),
    ("A-LOCK", Button::Key(Key::Alpha)),
    ("LINK", Button::Key(Key::XTTheta)),
    ("LIST", Button::Key(Key::Stat)),
    ("TEST", Button::Key(Key::Math)),
    ("ANGLE", Button::Key(Key::Matrx)),
    ("DRAW", Button::Key(Key::Prgm)),
    ("Y-VARS", Button::Key(Key::Vars)),
    ("ABS", Button::Key(Key::Inverse)),
    ("SIN⁻¹", Button::Key(Key::Sin)),
    ("SIN-1", Button::Key(Key::Sin)),
    ("COS⁻¹", Button::Key(Key::Cos)),
    ("COS-1", Button::Key(Key::Cos)),
    ("TAN⁻¹", Button::Key(Key::Tan)),
    ("TAN-1", Button::Key(Key::Tan)),
    ("π", Button::Key(Key::Pow)),
    ("PI", Button::Key(Key::Pow)),
    ("√", Button::Key(Key::Square)),
    ("SQRT", Button::Key(Key::Square)),
    ("EE", Button::Key(Key::Comma)),
    ("{", Button::Key(Key::LParen)),
    ("}", Button::Key(Key::RParen)),
    ("[", Button::Key(Key::Mul)),
    ("]", Button::Key(Key::Sub)),
    ("MEM", Button::Key(Key::Add)),
    ("10^", Button::Key(Key::Log)),
    ("10^X", Button::Key(Key::Log)),
    ("e^", Button::Key(Key::Ln)),
    ("e^X", Button::Key(Key::Ln)),
    ("RCL", Button::Key(Key::Sto)),
    ("L1", Button::Key(Key::K1)),
    ("L2", Button::Key(Key::K2)),
    ("L3", Button::Key(Key::K3)),
    ("L4", Button::Key(Key::K4)),
    ("L5", Button::Key(Key::K5)),
    ("L6", Button::Key(Key::K6)),
    ("L₁", Button::Key(Key::K1)),
    ("L₂", Button::Key(Key::K2)),
    ("L₃", Button::Key(Key::K3)),
    ("L₄", Button::Key(Key::K4)),
    ("L₅", Button::Key(Key::K5)),
    ("L₆", Button::Key(Key::K6)),
    ("ANS", Button::Key(Key::Neg)),
    ("ENTRY", Button::Key(Key::Enter)),
    ("OFF", Button::On),
];

/// The words a script knows besides the key names (for the nearest-word hint).
const SCRIPT_WORDS: &[&str] = &["WAIT", "HOLD", "RELEASE", "READY", "DONE", "HALTED"];

/// The TI-82 key that carries each ALPHA letter (as printed above the keys).
pub const ALPHA_LETTERS: &[(char, &str)] = &[
    ('A', "MATH"),
    ('B', "MATRX"),
    ('C', "PRGM"),
    ('D', "x⁻¹"),
    ('E', "SIN"),
    ('F', "COS"),
    ('G', "TAN"),
    ('H', "^"),
    ('I', "x²"),
    ('J', ","),
    ('K', "("),
    ('L', ")"),
    ('M', "÷"),
    ('N', "LOG"),
    ('O', "7"),
    ('P', "8"),
    ('Q', "9"),
    ('R', "×"),
    ('S', "LN"),
    ('T', "4"),
    ('U', "5"),
    ('V', "6"),
    ('W', "−"),
    ('X', "STO▸"),
    ('Y', "1"),
    ('Z', "2"),
    ('θ', "3"),
    ('"', "+"),
    (' ', "0"),
    (':', "."),
    ('?', "(−)"),
];

/// The key a second function `name` (case-insensitive) is on.
pub fn second_function(name: &str) -> Option<Button> {
    let n = name.trim();
    SECOND_FUNCTIONS
        .iter()
        .find(|(s, _)| s.to_lowercase() == n.to_lowercase())
        .map(|&(_, b)| b)
}

/// The keys that type `c` in a quoted string: ALPHA and the key for a letter, θ, a space,
/// `"`, `:` and `?`; the key itself for a digit or an operator; 2nd for `{ } [ ] π √`.
fn char_keys(c: char) -> Option<Vec<Button>> {
    let key = |k| Some(vec![Button::Key(k)]);
    let up = c.to_uppercase().next().unwrap_or(c);
    if let Some(&(_, name)) = ALPHA_LETTERS.iter().find(|(l, _)| *l == up) {
        return Some(vec![Button::Key(Key::Alpha), Button::from_name(name)?]);
    }
    match c {
        '0'..='9' | '.' | ',' | '(' | ')' | '^' => {
            Button::from_name(&c.to_string()).map(|b| vec![b])
        }
        '+' => key(Key::Add),
        '-' | '−' => key(Key::Sub),
        '*' | '×' => key(Key::Mul),
        '/' | '÷' => key(Key::Div),
        '~' | '⁻' => key(Key::Neg),
        '²' => key(Key::Square),
        '→' => key(Key::Sto),
        _ => {
            let b = second_function(&c.to_string())?;
            Some(vec![Button::Key(Key::Second), b])
        }
    }
}

/// The keys a quoted string (`"HELLO 2"`, quotes included) types.
fn string_keys(word: &str) -> Result<Vec<Button>, String> {
    let Some(inner) = word
        .strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .filter(|_| word.len() >= 2)
    else {
        return Err(format!("{word:?}: a quoted string needs its closing quote"));
    };
    let mut out = Vec::new();
    for c in inner.chars() {
        let keys = char_keys(c)
            .ok_or_else(|| format!("no key types {c:?} (in {word:?}); press its menu's keys"))?;
        out.extend(keys);
    }
    Ok(out)
}

/// A word as keys: a key's name, a second function's name (2nd and its key), or a quoted
/// string; without a string, an optional `*n` repeat.
fn buttons_of(word: &str) -> Option<Vec<Button>> {
    if let Some(b) = Button::from_name(word) {
        return Some(vec![b]);
    }
    second_function(word).map(|b| vec![Button::Key(Key::Second), b])
}

/// A key word with an optional `*n` repeat: the keys it taps and how many times.
fn key_word(word: &str) -> Result<(Vec<Button>, u64), String> {
    if word.starts_with('"') {
        return Ok((string_keys(word)?, 1));
    }
    if let Some(b) = buttons_of(word) {
        return Ok((b, 1));
    }
    if let Some((name, count)) = word.rsplit_once('*') {
        if !name.is_empty() && !count.is_empty() && count.bytes().all(|c| c.is_ascii_digit()) {
            let b = buttons_of(name).ok_or_else(|| unknown(name))?;
            let n: u64 = count
                .parse()
                .map_err(|_| format!("bad repeat count {count:?}"))?;
            if n > MAX_REPEAT {
                return Err(format!("repeat {n} is over the limit of {MAX_REPEAT}"));
            }
            return Ok((b, n));
        }
    }
    Err(unknown(word))
}

/// The error for an unknown word, naming the nearest known one.
fn unknown(word: &str) -> String {
    let mut known: Vec<&str> = Key::all().map(|k| k.name()).collect();
    known.push("ON");
    known.extend(SECOND_FUNCTIONS.iter().map(|&(s, _)| s));
    known.extend(SCRIPT_WORDS);
    let w = word.to_uppercase();
    let nearest = known
        .iter()
        .map(|k| (edit_distance(&w, &k.to_uppercase()), *k))
        .min_by_key(|&(d, _)| d)
        .filter(|&(d, _)| d <= 2.max(w.chars().count() / 3));
    match nearest {
        Some((_, k)) => format!("unknown key {word:?} (did you mean {k}?)"),
        None => format!(
            "unknown key {word:?} (key names are as printed: ENTER, 2nd, ALPHA, X,T,θ, STO>, \
             (-), ON, QUIT, ANS, ...; \"TEXT\" types text)"
        ),
    }
}

/// Levenshtein distance between two words, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// How long a tap holds its key and how long it waits after, in emulated ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub hold_ms: u64,
    pub gap_ms: u64,
}

impl Default for Timing {
    fn default() -> Self {
        // The OS scans the keypad on the timer interrupt (about 180 Hz); 60 ms down and 60 ms
        // up is well over its debounce and repeat thresholds.
        Timing {
            hold_ms: 60,
            gap_ms: 60,
        }
    }
}

/// Emulated milliseconds to T-states.
pub fn ms_to_t(ms: u64) -> u64 {
    ms.saturating_mul(CLOCK_HZ / 1000)
}

/// Expands taps into press, wait, release, wait; other steps stay as they are.
pub fn expand(steps: &[Step], timing: Timing) -> Vec<Step> {
    let mut out = Vec::with_capacity(steps.len() * 4);
    for &s in steps {
        match s {
            Step::Tap(b) => out.extend([
                Step::Hold(b),
                Step::Wait(timing.hold_ms),
                Step::Release(b),
                Step::Wait(timing.gap_ms),
            ]),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_expanding_past_the_step_limit_is_refused() {
        let long = "ENTER*10000 ".repeat(MAX_STEPS / 10_000 + 1);
        let e = parse(&long).unwrap_err();
        assert!(e.message.contains("limit"), "{e}");
        assert_eq!(parse(&"ENTER*10000 ".repeat(3)).unwrap().len(), 30_000);
    }

    fn taps(src: &str) -> Vec<&'static str> {
        parse(src)
            .unwrap()
            .into_iter()
            .map(|s| match s {
                Step::Tap(b) => b.name(),
                other => panic!("not a tap: {other:?}"),
            })
            .collect()
    }

    /// Second functions by their printed names (the TI-82 keyboard's blue labels), with or
    /// without the 2nd a user types first.
    #[test]
    fn second_functions_are_their_key_pairs() {
        assert_eq!(taps("QUIT"), ["2nd", "MODE"]);
        assert_eq!(taps("2nd QUIT"), ["2nd", "MODE"]);
        assert_eq!(taps("2nd MODE"), ["2nd", "MODE"]);
        assert_eq!(taps("STAT PLOT"), ["2nd", "Y="]);
        assert_eq!(taps("STAT ENTER"), ["STAT", "ENTER"]);
        assert_eq!(taps("TblSet FORMAT CALC TABLE"), {
            [
                "2nd", "WINDOW", "2nd", "ZOOM", "2nd", "TRACE", "2nd", "GRAPH",
            ]
        });
        assert_eq!(
            taps("test ans entry"),
            ["2nd", "MATH", "2nd", "(−)", "2nd", "ENTER"]
        );
        assert_eq!(
            taps("LINK MEM INS"),
            ["2nd", "X,T,θ", "2nd", "+", "2nd", "DEL"]
        );
        assert_eq!(taps("ANGLE DRAW LIST RCL"), {
            ["2nd", "MATRX", "2nd", "PRGM", "2nd", "STAT", "2nd", "STO▸"]
        });
        assert_eq!(taps("L1 L6 π √ EE"), {
            ["2nd", "1", "2nd", "6", "2nd", "^", "2nd", "x²", "2nd", ","]
        });
        assert_eq!(
            taps("{ } [ ]"),
            ["2nd", "(", "2nd", ")", "2nd", "×", "2nd", "−"]
        );
        assert_eq!(taps("OFF"), ["2nd", "ON"]);
        assert_eq!(taps("QUIT*2"), ["2nd", "MODE", "2nd", "MODE"]);
    }

    /// A quoted string is the keys that type it: ALPHA before each letter and the space
    /// (ALPHA 0), digits as themselves.
    #[test]
    fn a_quoted_string_types_its_text() {
        assert_eq!(
            taps("\"HELLO 2\""),
            [
                "ALPHA", "^", "ALPHA", "SIN", "ALPHA", ")", "ALPHA", ")", "ALPHA", "7", "ALPHA",
                "0", "2"
            ]
        );
        assert_eq!(taps("\"1+X\" ENTER"), ["1", "+", "ALPHA", "STO▸", "ENTER"]);
        assert_eq!(taps("\"{1}\""), ["2nd", "(", "1", "2nd", ")"]);
        let e = parse("\"AB").unwrap_err();
        assert!(e.message.contains("closing quote"), "{e}");
        let e = parse("\"A=B\"").unwrap_err();
        assert!(e.message.contains("'='"), "{e}");
    }

    /// An unknown word names the nearest known one.
    #[test]
    fn unknown_words_name_the_nearest_known_word() {
        let e = parse("ENTER QIUT").unwrap_err();
        assert_eq!((e.line, e.column), (1, 7));
        assert!(e.message.contains("did you mean QUIT?"), "{e}");
        let e = parse("TRACEE").unwrap_err();
        assert!(e.message.contains("did you mean TRACE?"), "{e}");
        let e = parse("XYZZYQWERTY").unwrap_err();
        assert!(e.message.contains("key names are as printed"), "{e}");
    }

    #[test]
    fn words_and_columns() {
        let w = words("A  B\n  # x\nC #c");
        assert_eq!(w, vec![(1, 1, "A"), (1, 4, "B"), (3, 1, "C")]);
    }
}

/// What the calculator is doing, as its firmware tells it: the conditions the key player
/// waits for instead of guessing how long something takes in emulated time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// No program runs: the one started has ended (`Done`, `Stop`, an error screen) and the
    /// calculator is back at a screen of the OS.
    ProgramDone,
    /// The calculator waits for a key: at the home screen, or in a program's `Menu(`,
    /// `Pause` or `Input`/`Prompt`.
    KeyWait,
    /// The processor sits in HALT, whatever the interrupts and the power bit: a ROM at rest
    /// after its cold start, waiting for ON (ti82-hardware.md 2.6), or off. The built-in runtime
    /// rests whenever it waits for a key.
    Halted,
}

impl Until {
    /// Whether the condition holds now. The built-in runtime answers from its own state
    /// (`BasicFirmware::program_active` and `status`). A ROM is asked nothing: the Z80 is
    /// taken to wait for a key when it sits in HALT with interrupts enabled and is not powered
    /// down (ti82-hardware.md 2.5), as a TI-OS idles between the timer interrupts that scan
    /// the keypad ([U]: our decision, not checked on a real ROM; a program busy in a `getKey`
    /// loop never halts, so there both conditions wait for their time limit).
    pub fn holds(self, calc: &Calc) -> bool {
        if let Some(fw) = builtin_firmware(calc) {
            use tibasic::interp::{Status, Wait};
            let waiting = matches!(
                fw.status(),
                Status::Waiting(Wait::Menu { .. } | Wait::Pause | Wait::Input(_))
            );
            return match self {
                Until::ProgramDone => !fw.program_active(),
                Until::KeyWait | Until::Halted => !fw.program_active() || waiting,
            };
        }
        if self == Until::Halted {
            return calc.cpu().is_none_or(|cpu| cpu.halted());
        }
        // Powered down (2nd ON, or a cold boot before ON: the same HALT with the power bit of
        // port 03h clear, ti82-hardware.md 2.5/2.6) is not waiting for a key.
        match calc.cpu() {
            Some(cpu) => cpu.halted() && cpu.iff1 && !calc.hardware().powered_down(),
            None => true,
        }
    }
}

/// The built-in runtime of `calc`, if it runs that rather than a ROM.
fn builtin_firmware(calc: &Calc) -> Option<&tibasic::firmware::BasicFirmware> {
    calc.firmware()
        .as_any()
        .downcast_ref::<tibasic::firmware::BasicFirmware>()
}

/// How often a waiting [`Until`] looks again, in emulated ms.
const UNTIL_POLL_MS: u64 = 10;

/// One queued thing to do.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Step(Step),
    /// Start a program (resolved when reached, once the calculator is up).
    Run(String),
    /// Wait until a condition holds, at most `limit_ms` emulated ms from when it is reached
    /// (`since`: the T-state it was reached at).
    Until {
        until: Until,
        limit_ms: u64,
        since: Option<u64>,
        /// Past the limit, go on without a note.
        quiet: bool,
    },
}

/// Plays key steps against emulated time.
#[derive(Default, Debug)]
pub struct Player {
    queue: VecDeque<Item>,
    pub(crate) busy_until: u64,
    timing: Timing,
    notes: Vec<String>,
}

impl Player {
    /// Queues a parsed script (taps expanded).
    pub fn push(&mut self, steps: &[Step]) {
        for s in expand(steps, self.timing) {
            self.queue.push_back(Item::Step(s));
        }
    }

    pub fn push_run(&mut self, name: &str) {
        self.queue.push_back(Item::Run(name.to_string()));
    }

    /// Queues a wait for `until`, giving up after `limit_ms` emulated ms (with a message in
    /// [`Self::take_notes`]).
    pub fn push_until(&mut self, until: Until, limit_ms: u64) {
        self.queue.push_back(Item::Until {
            until,
            limit_ms,
            since: None,
            quiet: false,
        });
    }

    /// Things to tell the user (a wait that ran out of time).
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// Items queued.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn is_idle(&self, now: u64) -> bool {
        self.queue.is_empty() && now >= self.busy_until
    }

    /// Plays every queued step on `calc` alone (no recorders, no cable), running it as long
    /// as the steps take.
    pub fn run(&mut self, calc: &mut Calc) -> Result<()> {
        loop {
            self.apply(calc)?;
            let now = calc.now();
            if self.is_idle(now) {
                return Ok(());
            }
            calc.run_for(self.busy_until.saturating_sub(now).clamp(1, FRAME_T));
        }
    }

    /// Puts `steps` (taps expanded) at the front of the queue.
    fn push_front(&mut self, steps: &[Step]) {
        for s in expand(steps, self.timing).into_iter().rev() {
            self.queue.push_front(Item::Step(s));
        }
    }

    /// Applies every step due at `calc.now()`; returns when the next one lies in the future.
    pub(crate) fn apply(&mut self, calc: &mut Calc) -> Result<()> {
        while calc.now() >= self.busy_until {
            let Some(item) = self.queue.pop_front() else {
                break;
            };
            match item {
                Item::Step(Step::Hold(b)) => b.set(calc, true),
                Item::Step(Step::Release(b)) => b.set(calc, false),
                Item::Step(Step::Tap(b)) => self.push_front(&[Step::Tap(b)]),
                Item::Step(Step::Wait(ms)) => self.busy_until = calc.now() + ms_to_t(ms),
                Item::Step(Step::Until(until)) => self.queue.push_front(Item::Until {
                    until,
                    limit_ms: SCRIPT_UNTIL_LIMIT_MS,
                    since: None,
                    quiet: false,
                }),
                Item::Step(Step::UntilWithin(until, ms)) => self.queue.push_front(Item::Until {
                    until,
                    limit_ms: ms,
                    since: None,
                    quiet: true,
                }),
                Item::Run(name) => self.push_front(&run_program_keys(calc, &name)?),
                Item::Until {
                    until,
                    limit_ms,
                    since,
                    quiet,
                } => {
                    let now = calc.now();
                    let since = since.unwrap_or(now);
                    if until.holds(calc) {
                        continue;
                    }
                    if now.saturating_sub(since) >= ms_to_t(limit_ms) {
                        if quiet {
                            continue;
                        }
                        self.notes.push(format!(
                            "gave up waiting for the calculator ({until:?}) after {} emulated s",
                            limit_ms / 1000
                        ));
                        continue;
                    }
                    self.queue.push_front(Item::Until {
                        until,
                        limit_ms,
                        since: Some(since),
                        quiet,
                    });
                    self.busy_until = now + ms_to_t(UNTIL_POLL_MS);
                }
            }
        }
        Ok(())
    }
}

/// Keys that start program `name` from the home screen on a ROM calculator: CLEAR, PRGM,
/// down to the program in the alphabetical EXEC list, ENTER pastes `prgmNAME`, ENTER runs
/// it. Fails if there is no such program in RAM.
pub fn run_program_keys(calc: &Calc, name: &str) -> Result<Vec<Step>> {
    // Program names are upper case on the calculator; accept any case here.
    let want = tifiles::VarName::program(&name.to_ascii_uppercase())
        .with_context(|| format!("--run {name}"))?;
    let names = tibasic::firmware::program_names(calc.ram());
    let Some(i) = names.iter().position(|n| n.as_slice() == want.bytes()) else {
        let list: Vec<String> = names.iter().map(|n| tibasic::font::decode(n)).collect();
        bail!(
            "--run {name}: no such program in the calculator (programs: {})",
            if list.is_empty() {
                "none".to_string()
            } else {
                list.join(", ")
            }
        );
    };
    let mut steps = vec![
        Step::Tap(Button::Key(Key::Clear)),
        Step::Tap(Button::Key(Key::Prgm)),
    ];
    steps.extend(std::iter::repeat_n(Step::Tap(Button::Key(Key::Down)), i));
    steps.push(Step::Tap(Button::Key(Key::Enter)));
    steps.push(Step::Tap(Button::Key(Key::Enter)));
    Ok(steps)
}

/// How long a press lasts on the calculator at least, in emulated ms: a quick human tap.
pub const HUMAN_PRESS_MS: u64 = 100;

/// One key the host holds, as the calculator sees it.
#[derive(Clone, Debug)]
struct HeldKey {
    button: Button,
    /// When it went down, in T-states and in wall time.
    down_t: u64,
    down_wall: std::time::Instant,
    /// When it goes up on the calculator (T-states), as far as known now.
    up_t: u64,
    /// Released on the calculator already (the host may still hold it).
    up: bool,
    /// The host still holds it (as of the last update).
    host: bool,
}

/// Host key holds (window keys, mouse buttons) as presses and releases in emulated time.
///
/// A press goes down when the front end sees it and lasts on the calculator as long as the
/// host held it, measured in wall time and converted at the speed's factor (real: 1 wall
/// second is 1 emulated second; `N`: N; turbo: 1, as a human press would last), and at
/// least [`HUMAN_PRESS_MS`]. So a key held for one host frame in turbo (which may run ten
/// emulated seconds) is a 100 ms press on the calculator, not a ten-second one that repeats
/// a hundred times; a key held for a second repeats as on a real calculator held a second.
/// [`KeyHolds::next_up`] tells the runner where to cut its chunk so the release lands on time;
/// while the host still holds a key, the runner stops at its release time
/// ([`KeyHolds::stalled`]) until the next frame says whether the hold goes on, so in turbo a
/// held key slows the calculator to the hold's own pace (real time) until it is let go.
#[derive(Clone, Debug, Default)]
pub struct KeyHolds {
    keys: Vec<HeldKey>,
    last_wall: Option<std::time::Instant>,
}

impl KeyHolds {
    /// One host frame: `want` are the buttons the host holds at `wall`; `factor` is the
    /// emulated seconds a wall second of holding is worth (see the type's doc). Presses
    /// new buttons and moves the release times of held ones; call before running the frame.
    pub fn update(
        &mut self,
        calc: &mut Calc,
        want: &[Button],
        wall: std::time::Instant,
        factor: f64,
    ) {
        // The coming chunk runs about as much wall time as the last frame took: a held key
        // stays down through it.
        let frame = self
            .last_wall
            .map_or(0.0, |l| wall.saturating_duration_since(l).as_secs_f64());
        self.last_wall = Some(wall);
        let now = calc.now();
        let min_t = ms_to_t(HUMAN_PRESS_MS);
        self.keys.retain_mut(|k| {
            k.host = want.contains(&k.button);
            if k.up {
                // Released on the calculator already: kept while the host still holds it.
                return k.host;
            }
            if k.host {
                let held = wall.saturating_duration_since(k.down_wall).as_secs_f64() + frame;
                let t = (held * factor.max(0.0) * CLOCK_HZ as f64) as u64;
                k.up_t = k.up_t.max(k.down_t + t.max(min_t));
                return true;
            }
            // Host released: up at once, unless the press has not lasted a human tap yet.
            k.up_t = k.down_t + min_t;
            if now < k.up_t {
                return true;
            }
            k.button.set(calc, false);
            false
        });
        for &b in want {
            if !self.keys.iter().any(|k| k.button == b) {
                b.set(calc, true);
                self.keys.push(HeldKey {
                    button: b,
                    down_t: now,
                    down_wall: wall,
                    up_t: now + min_t,
                    up: false,
                    host: true,
                });
            }
        }
    }

    /// The next T-state at which a key goes up on the calculator.
    pub fn next_up(&self) -> Option<u64> {
        self.keys.iter().filter(|k| !k.up).map(|k| k.up_t).min()
    }

    /// Whether the runner must stop for this host frame: a key the host still holds has
    /// reached its release time as known so far.
    pub fn stalled(&self, now: u64) -> bool {
        self.keys.iter().any(|k| k.host && !k.up && now >= k.up_t)
    }

    /// Releases the keys the host has let go whose time has come (`calc.now()` at or past
    /// it); they are forgotten at the next update.
    pub fn release_due(&mut self, calc: &mut Calc) {
        let now = calc.now();
        for k in &mut self.keys {
            if !k.host && !k.up && now >= k.up_t {
                k.button.set(calc, false);
                k.up = true;
            }
        }
    }

    /// The buttons down on the calculator now (for drawing them pressed).
    pub fn down(&self) -> Vec<Button> {
        self.keys
            .iter()
            .filter(|k| !k.up)
            .map(|k| k.button)
            .collect()
    }
}
