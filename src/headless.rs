//! `ti82 run --headless`: run a key script on a calculator, then print or save what it shows.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::app::Machine;
use crate::capture::GifRecorder;
use crate::render::{lcd_image, text_shadow, write_png};
use crate::script::{self, Step};

/// How long a headless run with `--link` waits for its peer (wall time).
pub const LINK_WAIT: std::time::Duration = std::time::Duration::from_secs(15);

/// What a headless run does after starting the calculator.
#[derive(Clone, Debug, Default)]
pub struct Headless {
    pub keys: Option<String>,
    pub wait_ms: u64,
    pub screenshot: Option<PathBuf>,
    pub scale: u32,
    pub gif: Option<PathBuf>,
    pub print_lcd: bool,
    pub print_text: bool,
}

impl Headless {
    /// Plays the key script (after any `--run`), waits `wait_ms`, then writes the outputs
    /// to `out` and the files. The script is parsed before anything runs.
    pub fn run(&self, m: &mut Machine, out: &mut dyn Write) -> Result<()> {
        let steps = match &self.keys {
            Some(k) => script::parse(k)?,
            None => Vec::new(),
        };
        if let Some(net) = &mut m.net {
            // Plug the cable in before anything runs, so both ends start together.
            let start = std::time::Instant::now();
            while !net.connected() {
                let msgs = net.poll(&mut m.calc);
                m.messages.extend(msgs);
                if start.elapsed() > LINK_WAIT {
                    anyhow::bail!(
                        "no link peer at {} within {} s",
                        net.addr,
                        LINK_WAIT.as_secs()
                    );
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        if let Some(p) = &self.gif {
            let mut g = GifRecorder::create(p, self.scale.max(1) as usize)?;
            g.push(&m.calc.lcd(), m.calc.now())?;
            m.gif = Some(g);
        }
        m.player.push(&steps);
        m.player.push(&[Step::Wait(self.wait_ms)]);
        m.run_queue()?;
        let screen = m.calc.lcd();
        if let Some(p) = &self.screenshot {
            let (px, w, h) = lcd_image(&screen, self.scale.max(1) as usize);
            write_png(p, &px, w, h)?;
        }
        if self.print_lcd {
            out.write_all(screen.to_text().as_bytes())
                .context("stdout")?;
        }
        if self.print_text {
            for line in text_shadow(m.calc.ram()) {
                writeln!(out, "{line}").context("stdout")?;
            }
        }
        Ok(())
    }
}
