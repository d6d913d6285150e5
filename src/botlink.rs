//! `--link bot[:LEVEL]`: the computer opponent on the calculator's cable (crate `linkbot`),
//! stepped in emulated time together with the calculator, on this thread.

use anyhow::{bail, Result};
use linkbot::{BotConfig, BotPeer};
use mancala::Level;
use ti82_machine::Calc;
use tilink::VirtualCable;

/// The bot and its end of the cable.
pub struct BotLink {
    cable: VirtualCable,
    pub peer: BotPeer,
}

/// The level named by a `--link` value: `bot` (hard) or `bot:LEVEL`; `None` if the value does
/// not name the bot.
pub fn parse_bot(spec: &str) -> Option<Result<Level>> {
    let lower = spec.to_ascii_lowercase();
    let rest = lower.strip_prefix("bot")?;
    Some(match rest {
        "" => Ok(Level::Hard),
        _ => match rest.strip_prefix(':') {
            Some(level) => level
                .parse::<Level>()
                .map_err(|e| anyhow::anyhow!("--link {spec}: {e}")),
            None => return None,
        },
    })
}

impl BotLink {
    /// Plugs a bot at `level` into `calc`.
    pub fn attach(calc: &mut Calc, level: Level) -> BotLink {
        let cable = VirtualCable::attach(calc, ti82_machine::cable::DEFAULT_LATENCY);
        let peer = BotPeer::new(BotConfig {
            level,
            ..BotConfig::default()
        });
        BotLink { cable, peer }
    }

    /// Runs the calculator and the bot together for `t` T-states.
    pub fn run(&mut self, calc: &mut Calc, t: u64) {
        let until = calc.now().saturating_add(t);
        let peer = &mut self.peer;
        self.cable.run(calc, until, |ep| peer.poll(ep));
    }

    /// The status-line text.
    pub fn status(&self) -> String {
        let s = self.peer.status();
        format!("link: bot ({}): {s}", self.peer.config().level)
    }

    /// Unplugs the bot.
    pub fn detach(self, calc: &mut Calc) {
        self.cable.detach(calc);
    }
}

/// `--link` with one value must name the bot.
pub fn bot_level(values: &[String]) -> Result<Option<Level>> {
    match values {
        [one] => match parse_bot(one) {
            Some(level) => Ok(Some(level?)),
            None => bail!(
                "--link {one}: use `--link bot[:LEVEL]`, `--link listen ADDR` or `--link connect ADDR`"
            ),
        },
        _ => Ok(None),
    }
}
