//! The front end's side of the network cable (`--link listen|connect|relay`, `--code`,
//! `--link-delay`, `ti82 relay`): the arguments turned into a [`netlink::NetConfig`], and a
//! calculator together with its cable as one [`ti82_harness::Runner`].

use anyhow::{bail, Context, Result};
use netlink::{parse_addr, Delay, Mode, NetCable, NetConfig, Relay};
use ti82_machine::Calc;

use crate::cli::MachineArgs;

/// The network cable the arguments ask for, if any (`--link listen ADDR`, `--link connect
/// ADDR`, `--link relay HOST:PORT ROOM-SECRET`). A bare port means loopback.
pub fn link_config(m: &MachineArgs) -> Result<Option<NetConfig>> {
    let mode = match m.link.as_slice() {
        [] | [_] => return Ok(None),
        [mode, addr] => {
            let a = parse_addr(addr)?;
            match mode.to_ascii_lowercase().as_str() {
                "listen" => Mode::Listen(a),
                "connect" => Mode::Connect(a),
                "relay" => bail!(
                    "--link relay HOST:PORT ROOM-SECRET: the relay code is missing (e.g. 42-purple-beans)"
                ),
                other => bail!(
                    "--link {other}: use `--link listen ADDR`, `--link connect ADDR` or `--link relay HOST:PORT ROOM`"
                ),
            }
        }
        [mode, addr, code] if mode.eq_ignore_ascii_case("relay") => {
            if m.code.is_some() {
                bail!("--code: with --link relay the session code is the relay code (HOST:PORT ROOM-SECRET)");
            }
            let mut cfg = NetConfig::relay(parse_addr(addr)?, code)?;
            if let Some(d) = &m.link_delay {
                cfg.delay = d.parse::<Delay>().map_err(anyhow::Error::msg)?;
            }
            return Ok(Some(cfg));
        }
        _ => bail!(
            "--link takes `listen ADDR`, `connect ADDR`, `relay HOST:PORT ROOM-SECRET` or `bot[:LEVEL]`"
        ),
    };
    let mut cfg = NetConfig::new(mode);
    if let Some(code) = &m.code {
        cfg.code = code.clone();
    }
    if let Some(d) = &m.link_delay {
        cfg.delay = d.parse::<Delay>().map_err(anyhow::Error::msg)?;
    }
    Ok(Some(cfg))
}

/// A calculator and, when plugged in, its network cable: run together.
pub struct Linked<'a> {
    pub calc: &'a mut Calc,
    pub net: Option<&'a mut NetCable>,
}

impl ti82_harness::Runner for Linked<'_> {
    fn calc(&self) -> &Calc {
        self.calc
    }
    fn calc_mut(&mut self) -> &mut Calc {
        self.calc
    }
    fn run_for(&mut self, t: u64) {
        match &mut self.net {
            Some(n) => {
                n.run(self.calc, t);
            }
            None => self.calc.run_for(t),
        }
    }
}

/// `ti82 relay --listen ADDR`: pairs clients by room until killed.
pub fn relay(listen: &str) -> Result<()> {
    let addr = parse_addr(listen)?;
    let r = Relay::bind(addr)?;
    let local = r.local_addr().context("relay address")?;
    eprintln!("ti82 relay: listening on {local}");
    r.serve(|line| eprintln!("ti82 relay: {line}"))?;
    Ok(())
}
