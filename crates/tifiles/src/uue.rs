//! uuencode, as TI-82 programs were posted to mailing lists and newsgroups.
//! Hand-written: the format is a few lines, and the decoder must be tolerant of
//! mail damage (trailing spaces, CRLF, missing `end`) and bounded on any input.

/// A decoded `begin … end` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UueFile {
    /// The mode field (e.g. `644`), as text.
    pub mode: String,
    /// The file name from the `begin` line.
    pub name: String,
    pub data: Vec<u8>,
}

/// A malformed UUE block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("UUE line {line}: {msg}")]
pub struct UueError {
    /// 1-based line number in the input.
    pub line: usize,
    pub msg: String,
}

/// Byte offset of a `begin <mode> <name>` line, if the input has one.
pub fn find_begin(input: &[u8]) -> Option<usize> {
    let mut pos = 0;
    while pos < input.len() {
        let end = input[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |e| pos + e + 1);
        if is_begin_line(&input[pos..end]) {
            return Some(pos);
        }
        pos = end;
    }
    None
}

fn is_begin_line(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"begin ") else {
        return false;
    };
    let mode_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    mode_len > 0 && rest.get(mode_len) == Some(&b' ')
}

/// True if the input looks UUE-encoded (has a `begin NNN name` line).
pub fn is_uue(input: &[u8]) -> bool {
    find_begin(input).is_some()
}

fn trim_eol(l: &[u8]) -> &[u8] {
    let mut l = l;
    while let [rest @ .., b'\r' | b'\n'] = l {
        l = rest;
    }
    l
}

/// Decode the first `begin … end` block of the input.
pub fn decode(input: &[u8]) -> Result<UueFile, UueError> {
    decode_all(input, 1)?.into_iter().next().ok_or(UueError {
        line: 1,
        msg: "no `begin` line".into(),
    })
}

/// Decode up to `max` blocks (mail posts sometimes carry several files).
pub fn decode_all(input: &[u8], max: usize) -> Result<Vec<UueFile>, UueError> {
    let mut files = Vec::new();
    let mut lines = input.split(|&b| b == b'\n').enumerate();
    while files.len() < max {
        let Some((_, header)) = lines.by_ref().find(|(_, l)| is_begin_line(trim_eol(l))) else {
            break;
        };
        let header = String::from_utf8_lossy(trim_eol(header)).into_owned();
        let mut parts = header.splitn(3, ' ').skip(1);
        let mode = parts.next().unwrap_or("").to_string();
        let name = parts.next().unwrap_or("").trim().to_string();
        let mut data = Vec::new();
        let mut ended = false;
        let mut last = 0;
        for (i, raw) in lines.by_ref() {
            last = i + 1;
            let line = trim_eol(raw);
            if line == b"end" || line.starts_with(b"end ") {
                ended = true;
                break;
            }
            let Some(&first) = line.first() else {
                continue; // blank line (mail damage); harmless
            };
            let n = usize::from(first.wrapping_sub(b' ') & 0x3F);
            if n == 0 {
                continue; // the "`" (or space) line before `end`
            }
            let body = &line[1..];
            let need = n.div_ceil(3) * 4;
            if body.len() < need {
                // Trailing spaces are often stripped by mailers: pad them back.
                if body.iter().any(|&c| !(b' '..=b'`').contains(&c)) {
                    return Err(UueError {
                        line: i + 1,
                        msg: "character outside the UUE range".into(),
                    });
                }
            }
            let mut out = Vec::with_capacity(need / 4 * 3);
            for chunk in 0..need / 4 {
                let mut v = [0u8; 4];
                for (k, slot) in v.iter_mut().enumerate() {
                    let c = body.get(chunk * 4 + k).copied().unwrap_or(b' ');
                    if !(b' '..=b'`').contains(&c) {
                        return Err(UueError {
                            line: i + 1,
                            msg: format!("character {:?} outside the UUE range", c as char),
                        });
                    }
                    *slot = c.wrapping_sub(b' ') & 0x3F;
                }
                out.push(v[0] << 2 | v[1] >> 4);
                out.push(v[1] << 4 | v[2] >> 2);
                out.push(v[2] << 6 | v[3]);
            }
            out.truncate(n);
            data.extend_from_slice(&out);
        }
        if !ended {
            return Err(UueError {
                line: last.max(1),
                msg: "input ends before the `end` line".into(),
            });
        }
        files.push(UueFile { mode, name, data });
    }
    Ok(files)
}

/// Encode bytes as a UUE block (`begin 644 name` … `end`), 45 bytes a line,
/// using `` ` `` for zero.
pub fn encode(name: &str, data: &[u8]) -> String {
    let enc = |v: u8| if v == 0 { '`' } else { (b' ' + v) as char };
    let mut s = format!("begin 644 {name}\n");
    for line in data.chunks(45) {
        s.push(enc(line.len() as u8));
        for c in line.chunks(3) {
            let b = [
                c[0],
                c.get(1).copied().unwrap_or(0),
                c.get(2).copied().unwrap_or(0),
            ];
            s.push(enc(b[0] >> 2));
            s.push(enc((b[0] << 4 | b[1] >> 4) & 0x3F));
            s.push(enc((b[1] << 2 | b[2] >> 6) & 0x3F));
            s.push(enc(b[2] & 0x3F));
        }
        s.push('\n');
    }
    s.push_str("`\nend\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_known_text() {
        // "Cat" is the classic example: begin … #0V%T …
        let e = encode("cat.txt", b"Cat");
        assert!(e.contains("\n#0V%T\n"), "{e}");
        let d = decode(e.as_bytes()).unwrap();
        assert_eq!(d.data, b"Cat");
        assert_eq!(d.name, "cat.txt");
        assert_eq!(d.mode, "644");
        for n in [0usize, 1, 2, 3, 44, 45, 46, 200] {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 % 256) as u8).collect();
            let e = encode("x", &data);
            assert_eq!(decode(e.as_bytes()).unwrap().data, data);
            let crlf = e.replace('\n', "\r\n");
            assert_eq!(decode(crlf.as_bytes()).unwrap().data, data);
        }
    }

    #[test]
    fn errors() {
        assert!(decode(b"hello").is_err());
        assert!(decode(b"begin 644 x\n#0V%T\n").is_err());
        assert!(decode(b"begin 644 x\n#0V\x7f\x7f\nend\n").is_err());
        // trailing spaces stripped by a mailer
        assert_eq!(
            decode(b"Subject: hi\n\nbegin 644 x\n\"  \n`\nend\n")
                .unwrap()
                .data,
            [0, 0]
        );
    }
}
