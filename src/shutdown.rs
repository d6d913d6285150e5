//! Ending a front end without losing the calculator. SIGINT (Ctrl+C in the terminal that
//! started the window), SIGTERM (`kill`, a desktop logging out) and SIGHUP (the terminal
//! closed) ask the running loop to stop, so it leaves the way a closed window does and the
//! state is saved; a second signal ends the process at once. [`finish_anyway`] saves the state
//! when the loop ended with an error (in drawing, in the terminal) as well.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use anyhow::Result;

static REQUESTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

fn flag() -> &'static Arc<AtomicBool> {
    REQUESTED.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Installs the handlers (once; later calls do nothing more).
pub fn install() -> Result<()> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // Registered first, so it sees the flag as it was before this signal: a second
            // signal finds it set and exits.
            signal_hook::flag::register_conditional_shutdown(sig, 130, flag().clone())?;
            signal_hook::flag::register(sig, flag().clone())?;
        }
    }
    let _ = INSTALLED.set(());
    Ok(())
}

/// Whether a signal asked the front end to stop.
pub fn requested() -> bool {
    flag().load(Ordering::SeqCst)
}

/// Runs `finish` (closing recordings, saving the state) whatever the loop returned, prints its
/// messages, and returns the loop's error first, else `finish`'s.
pub fn finish_anyway(
    looped: Result<()>,
    finish: impl FnOnce() -> Result<Vec<String>>,
) -> Result<()> {
    let finished = finish();
    match finished {
        Ok(msgs) => {
            for msg in msgs {
                eprintln!("ti82: {msg}");
            }
            looped
        }
        Err(e) if looped.is_ok() => Err(e),
        Err(e) => {
            eprintln!("ti82: {e:#}");
            looped
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_term_signal_is_a_request_to_stop_not_an_exit() {
        install().unwrap();
        assert!(!requested());
        let status = std::process::Command::new("kill")
            .arg("-TERM")
            .arg(std::process::id().to_string())
            .status()
            .expect("kill");
        assert!(status.success());
        let t0 = std::time::Instant::now();
        while !requested() && t0.elapsed() < std::time::Duration::from_secs(5) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(
            requested(),
            "the process is still here and has seen the request"
        );
    }

    #[test]
    fn finish_runs_after_an_error_and_the_error_wins() {
        let mut ran = false;
        let r = finish_anyway(Err(anyhow::anyhow!("drawing failed")), || {
            ran = true;
            Ok(vec!["state saved".into()])
        });
        assert!(ran);
        assert_eq!(r.unwrap_err().to_string(), "drawing failed");
        let r = finish_anyway(Ok(()), || Err(anyhow::anyhow!("disk full")));
        assert_eq!(r.unwrap_err().to_string(), "disk full");
    }
}
