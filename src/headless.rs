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

/// Emulated ms a `--play-cvc` side waits for the other calculator over a network cable.
pub const NET_PEER_LIMIT_MS: u64 = 3_600_000;

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
    /// Print the glass as 8 lines of 16 large-font characters (`?` where no glyph matches).
    pub print_screen: bool,
    /// Play one side of a CALC VS CALC game after the key script.
    pub play_cvc: Option<ti82_harness::CvcOptions>,
    /// With a network cable: how fast to run (`None`: as fast as possible).
    pub speed: Option<f64>,
    /// Write the calculator's state here at the end.
    pub save_state: Option<PathBuf>,
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
            net.set_wall_budget(None);
            net.set_pace(match self.speed {
                Some(f) => netlink::Pace::Real(f),
                None => netlink::Pace::Free,
            });
            // Plug the cable in before anything runs, so both ends start together. A peer
            // that connected and already left counts (a short run on the other side may
            // finish before this loop looks again).
            let start = std::time::Instant::now();
            while !net.connected() && net.clock(&m.calc).is_none() {
                net.poll(&mut m.calc);
                m.messages.extend(net.take_messages());
                // A listener refuses strangers and waits on; a connecting side stops.
                if let (Some(why), None) = (net.refused(), net.net().local) {
                    anyhow::bail!("link refused: {why}");
                }
                if start.elapsed() > LINK_WAIT {
                    anyhow::bail!(
                        "no link peer within {} s ({})",
                        LINK_WAIT.as_secs(),
                        net.status()
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
        if let Some(opts) = self.play_cvc {
            play_cvc(m, opts, out)?;
        }
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
        if self.print_screen {
            for line in screen_text(&screen) {
                writeln!(out, "{line}").context("stdout")?;
            }
        }
        if let Some(p) = &self.save_state {
            crate::session::save_state(&m.calc, p)?;
        }
        Ok(())
    }
}

/// The glass as 8 lines of 16 characters of the large font (see `tibasic::glass`).
pub fn screen_text(screen: &ti82_machine::Screen) -> Vec<String> {
    tibasic::glass::read(|x, y| screen.pixel(x, y))
}

/// One side of a CALC VS CALC game on a calculator that has just started MANCALA: waits for
/// the main menu, plays with [`ti82_harness::CvcSide`] and prints what it verified. A
/// divergence is printed and is an error (exit 1).
fn play_cvc(m: &mut Machine, opts: ti82_harness::CvcOptions, out: &mut dyn Write) -> Result<()> {
    let mut run = crate::netcable::Linked {
        calc: &mut m.calc,
        net: m.net.as_mut(),
    };
    if !ti82_harness::settle(&mut run, 300, 60_000) {
        anyhow::bail!("MANCALA's main menu did not appear");
    }
    let mut side = ti82_harness::CvcSide::new(opts)?;
    if run.net.is_some() {
        // At turbo speed a calculator can run minutes of emulated time while a packet
        // crosses the network; the player's patience is the link's business here.
        side = side.with_peer_limit_ms(NET_PEER_LIMIT_MS);
    }
    let played = side.play(&mut run);
    if let Some(net) = &m.net {
        if let Some(c) = net.clock(&m.calc) {
            writeln!(
                out,
                "clock: {:.3} s emulated in {:.3} s wall ({:.3} % behind), held at real speed {:.2} s",
                c.emulated_s,
                c.wall_s,
                c.behind_percent(),
                net.held().as_secs_f64()
            )
            .context("stdout")?;
        }
        let s = net.stats();
        writeln!(
            out,
            "link: {} packets sent, {} delivered, {} expired, {} cancelled, {} dropped, {} Get( in one round trip",
            s.sent, s.delivered, s.expired, s.cancelled, s.dropped, s.one_trip
        )
        .context("stdout")?;
    }
    match played {
        Ok(r) => {
            writeln!(
                out,
                "moves verified: {}, divergences: 0, result: {}",
                r.moves_verified, r.result
            )
            .context("stdout")?;
            writeln!(out, "player {}, rocks per hole {}", r.me, r.rocks).context("stdout")?;
            writeln!(out, "board: {:?}", r.board).context("stdout")?;
            Ok(())
        }
        Err(ti82_harness::HarnessError::Divergence(d)) => {
            writeln!(
                out,
                "moves verified: {}, divergences: 1, result: divergence",
                side.moves_verified()
            )
            .context("stdout")?;
            writeln!(out, "{d}").context("stdout")?;
            anyhow::bail!("CALC VS CALC: a divergence")
        }
        Err(e) => Err(e.into()),
    }
}
