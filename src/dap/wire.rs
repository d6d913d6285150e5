//! The protocol's framing: `Content-Length` headers and JSON bodies, read on a thread of
//! their own so the calculator runs between requests.

use std::io::{BufRead, BufReader, Read};

use crossbeam_channel::Receiver;

use super::MAX_MESSAGE;

/// What the reader thread hands over.
pub(super) enum Incoming {
    Message(Vec<u8>),
    /// The stream cannot be trusted any more (framing broken, a message too long).
    Broken(String),
    End,
}

/// Reads one framed message; `Ok(None)` at the end of the input.
pub(super) fn read_message(r: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        let n = r
            .by_ref()
            .take(1024)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return if length.is_none() {
                Ok(None)
            } else {
                Err("the input ended inside a message's header".into())
            };
        }
        let t = line.trim_end_matches(['\r', '\n']);
        if t.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((k, v)) = t.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                let n: usize = v
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad Content-Length {:?}", v.trim()))?;
                if n > MAX_MESSAGE {
                    return Err(format!(
                        "Content-Length {n} is over the limit of {MAX_MESSAGE} bytes"
                    ));
                }
                length = Some(n);
            }
        } else {
            return Err(format!("not a message header: {t:?}"));
        }
    }
    let mut body = vec![0u8; length.unwrap_or(0)];
    r.read_exact(&mut body).map_err(|e| e.to_string())?;
    Ok(Some(body))
}

pub(super) fn reader(input: impl Read + Send + 'static) -> Receiver<Incoming> {
    let (tx, rx) = crossbeam_channel::bounded(64);
    std::thread::spawn(move || {
        let mut r = BufReader::new(input);
        loop {
            let m = match read_message(&mut r) {
                Ok(Some(body)) => Incoming::Message(body),
                Ok(None) => Incoming::End,
                Err(e) => Incoming::Broken(e),
            };
            let last = !matches!(m, Incoming::Message(_));
            if tx.send(m).is_err() || last {
                return;
            }
        }
    });
    rx
}
