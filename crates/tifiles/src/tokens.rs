//! TI-82 tokens (spec 5): the table from `ti82-tokens.tsv`, a tokenizer for plain
//! ASCII and display spellings, and a detokenizer whose output always tokenizes
//! back to the same bytes.
//!
//! Beyond spec 5.4 the text form has one escape character, `\` (no token spelling
//! contains it):
//! - `\xHH` is a raw byte (the detokenizer writes bytes that are no token this way,
//!   so even a damaged program round-trips; this is the "visible placeholder");
//! - `\` before anything else starts a new token: it stops the previous token from
//!   running into the next. The detokenizer writes it only where plain text would
//!   read back differently: `L\1` is the letter `L` then the digit `1`, not `L1`.
//!
//! One spelling rule holds inside string literals and out (a departure from spec
//! 5.4, which reads `L1` inside a string as two letters): a string holds tokens on
//! the calculator, so `"2{Y1}"` is `2` and the token `Y₁`, as `2{Y1}` is outside, and
//! the letters `L` `1` in a string are written `"L\1"`.

use std::collections::HashMap;
use std::sync::OnceLock;

const TSV: &str = include_str!("../data/ti82-tokens.tsv");

/// One token of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    raw: [u8; 2],
    len: u8,
    /// Plain-ASCII spelling (`->`, `L1`, `Disp `).
    pub ascii: &'static str,
    /// Spelling as the calculator shows it (`→`, `L₁`).
    pub display: &'static str,
    /// Notes column of the table.
    pub notes: &'static str,
    /// Spec 5.4: ASCII spelling longer than one character made only of one-character
    /// token spellings (`->`, `L1`, `[A]`, `^^2`…).
    pub typeable: bool,
}

impl Token {
    /// The token's bytes (one or two).
    pub fn bytes(&self) -> &[u8] {
        &self.raw[..usize::from(self.len)]
    }
    /// The code: the byte, or `prefix << 8 | second` for two-byte tokens.
    pub fn code(&self) -> u16 {
        if self.len == 2 {
            u16::from(self.raw[0]) << 8 | u16::from(self.raw[1])
        } else {
            u16::from(self.raw[0])
        }
    }
}

/// Byte values that start a two-byte token (spec 5.2).
pub const PREFIXES: [u8; 8] = [0x5C, 0x5D, 0x5E, 0x60, 0x61, 0x62, 0x63, 0x7E];

/// True for a prefix byte.
pub fn is_prefix(b: u8) -> bool {
    PREFIXES.contains(&b)
}

/// Well-known token bytes.
pub mod codes {
    pub const STORE: u8 = 0x04;
    pub const SPACE: u8 = 0x29;
    pub const QUOTE: u8 = 0x2A;
    pub const COLON: u8 = 0x3E;
    pub const NEWLINE: u8 = 0x3F;
}

type Matcher = HashMap<char, Vec<(&'static str, usize)>>;

/// The parsed token table.
#[derive(Debug)]
pub struct TokenTable {
    tokens: Vec<Token>,
    single: [Option<u16>; 256],
    pairs: HashMap<u16, usize>,
    /// Every ASCII and display spelling, inside strings and out.
    full: Matcher,
    /// Spellings that end in a space, without it (`Pause`), accepted before a line
    /// end, `:` or the end of the text: listings often lose trailing spaces.
    trimmed: Matcher,
}

/// The token table (parsed once from the embedded TSV).
pub fn table() -> &'static TokenTable {
    static T: OnceLock<TokenTable> = OnceLock::new();
    T.get_or_init(TokenTable::build)
}

fn unescape(s: &'static str) -> &'static str {
    if s == "\\n" {
        "\n"
    } else {
        s
    }
}

fn add(m: &mut Matcher, seen: &mut HashMap<&'static str, usize>, s: &'static str, idx: usize) {
    if s.is_empty() || seen.contains_key(s) {
        return;
    }
    seen.insert(s, idx);
    if let Some(c) = s.chars().next() {
        m.entry(c).or_default().push((s, idx));
    }
}

fn finish(m: &mut Matcher) {
    for v in m.values_mut() {
        v.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
    }
}

impl TokenTable {
    fn build() -> TokenTable {
        let mut tokens = Vec::new();
        for line in TSV.lines().skip(1) {
            let mut f = line.split('\t');
            let (Some(bytes), Some(ascii), Some(display)) = (f.next(), f.next(), f.next()) else {
                continue;
            };
            let notes = f.next().unwrap_or("");
            let mut raw = [0u8; 2];
            let mut len = 0u8;
            for (i, h) in bytes.split(' ').take(2).enumerate() {
                raw[i] = u8::from_str_radix(h, 16).unwrap_or(0);
                len = i as u8 + 1;
            }
            tokens.push(Token {
                raw,
                len,
                ascii: unescape(ascii),
                display: unescape(display),
                notes,
                typeable: false,
            });
        }
        let one_char: Vec<&str> = tokens
            .iter()
            .filter(|t| t.ascii.chars().count() == 1)
            .map(|t| t.ascii)
            .collect();
        for t in &mut tokens {
            t.typeable = t.ascii.chars().count() > 1
                && t.ascii.chars().all(|c| {
                    one_char
                        .iter()
                        .any(|o| o.starts_with(c) && o.len() == c.len_utf8())
                });
        }
        let mut single = [None; 256];
        let mut pairs = HashMap::new();
        for (i, t) in tokens.iter().enumerate() {
            if t.len == 1 {
                single[usize::from(t.raw[0])] = Some(i as u16);
            } else {
                pairs.insert(t.code(), i);
            }
        }
        let (mut full, mut fseen) = (Matcher::new(), HashMap::new());
        // ASCII spellings win over display spellings when they collide.
        for (i, t) in tokens.iter().enumerate() {
            add(&mut full, &mut fseen, t.ascii, i);
        }
        for (i, t) in tokens.iter().enumerate() {
            add(&mut full, &mut fseen, t.display, i);
        }
        let (mut trimmed, mut tseen) = (Matcher::new(), HashMap::new());
        for (i, t) in tokens.iter().enumerate() {
            for sp in [t.ascii, t.display] {
                if let Some(short) = sp.strip_suffix(' ') {
                    if !short.trim().is_empty() && !fseen.contains_key(short) {
                        add(&mut trimmed, &mut tseen, short, i);
                    }
                }
            }
        }
        finish(&mut full);
        finish(&mut trimmed);
        TokenTable {
            tokens,
            single,
            pairs,
            full,
            trimmed,
        }
    }

    /// All tokens in table order.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Look up the token at the start of `bytes`. `Ok` gives the token (its length is
    /// `token.bytes().len()`); `Err(n)` says the first `n` bytes are no token.
    pub fn decode(&self, bytes: &[u8]) -> Result<&Token, usize> {
        self.decode_index(bytes).map(|i| &self.tokens[i])
    }

    fn decode_index(&self, bytes: &[u8]) -> Result<usize, usize> {
        let Some(&b) = bytes.first() else {
            return Err(0);
        };
        if is_prefix(b) {
            let Some(&b2) = bytes.get(1) else {
                return Err(1);
            };
            let code = u16::from(b) << 8 | u16::from(b2);
            return self.pairs.get(&code).copied().ok_or(2);
        }
        self.single[usize::from(b)].map(usize::from).ok_or(1)
    }

    /// The token with these exact bytes.
    pub fn get(&self, bytes: &[u8]) -> Option<&Token> {
        match self.decode(bytes) {
            Ok(t) if t.bytes().len() == bytes.len() => Some(t),
            _ => None,
        }
    }

    /// The token whose ASCII or display spelling is exactly `s`.
    pub fn by_spelling(&self, s: &str) -> Option<&Token> {
        let c = s.chars().next()?;
        self.full
            .get(&c)?
            .iter()
            .find(|(sp, _)| *sp == s)
            .map(|&(_, i)| &self.tokens[i])
    }

    fn longest(&self, m: &Matcher, text: &str) -> Option<(usize, usize)> {
        let c = text.chars().next()?;
        m.get(&c)?
            .iter()
            .find(|(sp, _)| text.starts_with(sp))
            .map(|&(sp, i)| (sp.len(), i))
    }

    /// Longest match outside strings, including a token whose trailing space was
    /// dropped before a line end, `:` or (if `complete`) the end of `text`.
    fn longest_outside(&self, text: &str, complete: bool) -> Option<(usize, usize)> {
        let normal = self.longest(&self.full, text);
        let c = text.chars().next()?;
        let short = self.trimmed.get(&c).and_then(|v| {
            v.iter()
                .find(|(sp, _)| {
                    text.strip_prefix(sp).is_some_and(|rest| {
                        rest.starts_with('\n')
                            || rest.starts_with("\r\n")
                            || rest.starts_with(':')
                            || (complete && rest.is_empty())
                    })
                })
                .map(|&(sp, i)| (sp.len(), i))
        });
        match (normal, short) {
            (Some(n), Some(s)) if s.0 > n.0 => Some(s),
            (None, s) => s,
            (n, _) => n,
        }
    }
}

/// Which spelling the detokenizer writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Spelling {
    /// Plain ASCII (`->`, `L1`), inside strings and out.
    #[default]
    Ascii,
    /// As the calculator shows it (`→`, `L₁`).
    Display,
}

/// Text that does not tokenize.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message} at {context:?}")]
pub struct TokenizeError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The text from the error on (a few characters).
    pub context: String,
}

fn hex_val(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

fn raw_escape(rest: &[u8]) -> Option<u8> {
    // rest starts after the backslash
    if rest.len() >= 3 && rest[0] == b'x' {
        Some(hex_val(rest[1])? << 4 | hex_val(rest[2])?)
    } else {
        None
    }
}

/// Tokenize program text. Every character counts (spaces are token `0x29`, a line
/// break is `0x3F`, `\r\n` counts as one line break); a trailing line break gives a
/// trailing `0x3F` (see [`tokenize_source`] to drop it).
pub fn tokenize(text: &str) -> Result<Vec<u8>, TokenizeError> {
    let t = table();
    let mut out = Vec::with_capacity(text.len());
    let mut pos = 0;
    let (mut line, mut line_start) = (1usize, 0usize);
    let b = text.as_bytes();
    while pos < text.len() {
        let err = |msg: &str, at: usize| TokenizeError {
            line,
            column: text[line_start..at].chars().count() + 1,
            message: msg.to_string(),
            context: text[at..].chars().take(12).collect(),
        };
        let rest = &text[pos..];
        if rest.starts_with("\r\n") {
            out.push(codes::NEWLINE);
            pos += 2;
            line += 1;
            line_start = pos;
            continue;
        }
        if b[pos] == b'\\' {
            if let Some(v) = raw_escape(&b[pos + 1..]) {
                out.push(v);
                pos += 4;
                continue;
            }
            let Some((len, i)) = t.longest(&t.full, &text[pos + 1..]) else {
                return Err(err("`\\` is not followed by a token or xHH", pos));
            };
            out.extend_from_slice(t.tokens[i].bytes());
            pos += 1 + len;
        } else {
            // One spelling rule inside strings and out: strings hold tokens.
            let found = t.longest_outside(rest, true);
            let Some((len, i)) = found else {
                return Err(err("no token matches", pos));
            };
            out.extend_from_slice(t.tokens[i].bytes());
            pos += len;
        }
        if text[..pos].ends_with('\n') {
            line += 1;
            line_start = pos;
        }
    }
    Ok(out)
}

/// Like [`tokenize`], but a single line break at the very end of the text (as text
/// files usually have) is not turned into a token.
pub fn tokenize_source(text: &str) -> Result<Vec<u8>, TokenizeError> {
    let trimmed = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    tokenize(trimmed)
}

/// Offset and length of the first byte sequence that is no token (spec 5.2 lists
/// the unused bytes; a prefix needs a valid second byte), or `None` if every
/// byte belongs to a token.
pub fn find_invalid(bytes: &[u8]) -> Option<(usize, usize)> {
    let t = table();
    let mut pos = 0;
    while pos < bytes.len() {
        match t.decode(&bytes[pos..]) {
            Ok(tok) => pos += tok.bytes().len(),
            Err(n) => return Some((pos, n.max(1))),
        }
    }
    None
}

struct Piece {
    text: String,
    /// Token index, or None for raw bytes.
    tok: Option<usize>,
    forced: bool,
}

/// Detokenize program bytes. The result tokenizes back to exactly `bytes` (see the
/// module comment for the `\` escapes that guarantee it).
pub fn detokenize(bytes: &[u8], spelling: Spelling) -> String {
    let t = table();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        match t.decode_index(&bytes[pos..]) {
            Ok(idx) => {
                let tok = &t.tokens[idx];
                let text = match spelling {
                    Spelling::Display => tok.display,
                    Spelling::Ascii => tok.ascii,
                };
                // Forced when plain text would not read back as this token.
                let forced = t.longest(&t.full, text) != Some((text.len(), idx));
                pieces.push(Piece {
                    text: text.to_string(),
                    tok: Some(idx),
                    forced,
                });
                pos += tok.bytes().len();
            }
            Err(n) => {
                for &b in &bytes[pos..pos + n.max(1)] {
                    pieces.push(Piece {
                        text: format!("\\x{b:02X}"),
                        tok: None,
                        forced: false,
                    });
                }
                pos += n.max(1);
            }
        }
    }
    // Break wherever a longer spelling would swallow the start of the next piece.
    let max_len = t
        .tokens
        .iter()
        .map(|x| x.ascii.len().max(x.display.len()))
        .max()
        .unwrap_or(1);
    for i in 0..pieces.len() {
        let Some(idx) = pieces[i].tok else { continue };
        let Some(next) = pieces.get(i + 1) else {
            continue;
        };
        if next.forced || next.tok.is_none() {
            continue;
        }
        let mut look = pieces[i].text.clone();
        let mut complete = true;
        for p in &pieces[i + 1..] {
            if look.len() > max_len || p.forced || p.tok.is_none() {
                // cut short, or a backslash, which stops any match
                complete = false;
                break;
            }
            look.push_str(&p.text);
        }
        let found = if pieces[i].forced {
            t.longest(&t.full, &look)
        } else {
            t.longest_outside(&look, complete)
        };
        if found != Some((pieces[i].text.len(), idx)) {
            pieces[i + 1].forced = true;
        }
    }
    let mut out = String::with_capacity(bytes.len() * 2);
    for p in pieces {
        if p.forced {
            out.push('\\');
        }
        out.push_str(&p.text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_shape() {
        let t = table();
        assert_eq!(t.tokens().len(), 386);
        assert_eq!(
            t.tokens().iter().filter(|x| x.bytes().len() == 1).count(),
            241
        );
        assert_eq!(t.tokens().iter().filter(|x| x.typeable).count(), 53);
        assert_eq!(t.get(&[0x3F]).unwrap().ascii, "\n");
        assert_eq!(t.get(&[0x29]).unwrap().ascii, " ");
        assert!(t.get(&[0x26]).is_none());
        assert!(t.get(&[0x5D, 0x06]).is_none());
    }

    #[test]
    fn spec_examples() {
        assert_eq!(tokenize("Disp 1").unwrap(), [0xDE, 0x31]);
        assert_eq!(tokenize("1->A").unwrap(), [0x31, 0x04, 0x41]);
        assert_eq!(tokenize("1→A").unwrap(), [0x31, 0x04, 0x41]);
        assert_eq!(tokenize("L1").unwrap(), [0x5D, 0x00]);
        assert_eq!(tokenize("L₁").unwrap(), [0x5D, 0x00]);
        assert_eq!(tokenize("UnStart").unwrap(), [0x63, 0x04]);
        // One spelling rule inside strings and out (not spec 5.4's string rule): `L1` is
        // the list token in a string too, the letters are `L\1`.
        assert_eq!(
            tokenize("Output(1,2,\"L1\"").unwrap(),
            [0xE0, 0x31, 0x2B, 0x32, 0x2B, 0x2A, 0x5D, 0x00, 0x2A]
        );
        assert_eq!(tokenize("\"L\\1").unwrap(), [0x2A, 0x4C, 0x31]);
        assert_eq!(
            tokenize("\"2{Y1}\"->{Y2}").unwrap(),
            [0x2A, 0x32, 0x5E, 0x10, 0x2A, 0x04, 0x5E, 0x11]
        );
        assert_eq!(tokenize("\"L₁").unwrap(), [0x2A, 0x5D, 0x00]);
        assert_eq!(tokenize("\"HI->A").unwrap(), [0x2A, 0x48, 0x49, 0x04, 0x41]);
        assert_eq!(tokenize("\"A\nL1").unwrap(), [0x2A, 0x41, 0x3F, 0x5D, 0x00]);
        assert_eq!(tokenize("\"X^^2").unwrap(), [0x2A, 0x58, 0x0D]);
        assert_eq!(tokenize("\"X²").unwrap(), [0x2A, 0x58, 0x0D]);
        assert_eq!(tokenize("A\r\nB").unwrap(), [0x41, 0x3F, 0x42]);
        assert_eq!(tokenize_source("A\n").unwrap(), [0x41]);
        // Trailing spaces lost in listings.
        assert_eq!(
            tokenize("Pause\nPause:Pause").unwrap(),
            [0xD8, 0x3F, 0xD8, 0x3E, 0xD8]
        );
        assert_eq!(tokenize("Pause 1").unwrap(), [0xD8, 0x31]);
        assert_eq!(
            tokenize("\"Pause").unwrap(),
            [0x2A, 0xD8],
            "inside strings too"
        );
        assert_eq!(tokenize("DispGraph").unwrap(), [0xDF]);
        // ... and the detokenizer keeps token sequences that look like them apart.
        let med = [0x62, 0x13, 0x71, 0x62, 0x13];
        assert_eq!(detokenize(&med, Spelling::Display), "Med\\-Med");
        assert_eq!(tokenize(&detokenize(&med, Spelling::Display)).unwrap(), med);
    }

    #[test]
    fn errors_have_positions() {
        let e = tokenize("Disp 1\nDisp @").unwrap_err();
        assert_eq!((e.line, e.column), (2, 6));
        let e = tokenize("\\").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
    }

    #[test]
    fn detokenize_basics() {
        assert_eq!(detokenize(&[0xDE, 0x31], Spelling::Ascii), "Disp 1");
        assert_eq!(detokenize(&[0x5D, 0x00], Spelling::Display), "L₁");
        assert_eq!(detokenize(&[0x4C, 0x31], Spelling::Ascii), "L\\1");
        assert_eq!(detokenize(&[0x2A, 0x4C, 0x31], Spelling::Ascii), "\"L\\1");
        assert_eq!(detokenize(&[0x2A, 0x5D, 0x00], Spelling::Ascii), "\"L1");
        assert_eq!(detokenize(&[0x2A, 0x5C, 0x00], Spelling::Ascii), "\"[A]");
        assert_eq!(detokenize(&[0x26], Spelling::Ascii), "\\x26");
        assert_eq!(detokenize(&[0x5D], Spelling::Ascii), "\\x5D");
        assert_eq!(detokenize(&[0x5D, 0x09], Spelling::Ascii), "\\x5D\\x09");
    }

    #[test]
    fn invalid_bytes_are_found() {
        assert_eq!(find_invalid(&[0xDE, 0x31]), None);
        assert_eq!(find_invalid(&[0xDE, 0xBB, 0x31]), Some((1, 1)));
        assert_eq!(find_invalid(&[0x31, 0x5C, 0x05]), Some((1, 2)));
        assert_eq!(find_invalid(&[0x31, 0x5C]), Some((1, 1)));
    }

    #[test]
    fn display_spellings_name_their_own_token() {
        for tok in table().tokens() {
            assert_eq!(table().by_spelling(tok.ascii), Some(tok));
            assert_eq!(
                table().by_spelling(tok.display).map(|t| t.code()),
                Some(tok.code()),
                "{:?}",
                tok.display
            );
        }
    }

    #[test]
    fn all_single_and_pairs_round_trip() {
        for t in table().tokens() {
            for sp in [Spelling::Ascii, Spelling::Display] {
                let s = detokenize(t.bytes(), sp);
                assert_eq!(tokenize(&s).unwrap(), t.bytes(), "{s:?}");
            }
        }
    }
}
