//! The link: a holder answering silent requests while the OS waits for a key, a program's
//! `Get(`/`Send(`, and the LINK screens' SEND and RECEIVE (`crate::shell::link`).

use super::*;

/// A LINK SEND or RECEIVE in progress.
#[derive(Clone)]
pub(super) enum Transfer {
    Send(tilink::SendVars, Vec<(VarType, VarName)>),
    Receive {
        rx: tilink::ReceiveVars,
        /// How many of the received variables are in the VAT.
        stored: usize,
        /// The name the user gave the variable being received (Rename).
        rename: Option<VarName>,
    },
}

impl std::fmt::Debug for Transfer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transfer::Send(_, items) => write!(f, "Send({} items)", items.len()),
            Transfer::Receive { stored, .. } => write!(f, "Receive({stored} stored)"),
        }
    }
}

impl BasicFirmware {
    pub(super) fn key_link(&mut self, hw: &mut Hardware, k: Key, mut screen: LinkScreen) {
        // (During a transfer 2nd does nothing: only ON acts.)
        let second = if screen.busy() {
            std::mem::take(&mut self.shift) == Shift::Second
        } else {
            let Some(second) = self.after_second(k) else {
                return;
            };
            second
        };
        let alpha = |k: Key| match key_token(Shift::Alpha, k) {
            Some([c]) => Some(*c),
            _ => None,
        };
        let action = screen.key(k, second, alpha);
        self.shell = Shell::Link(screen);
        self.st.dirty = true;
        match action {
            LinkAction::None => {}
            LinkAction::Quit => self.link_quit(hw),
            LinkAction::List(kind) => {
                let screen = if kind == crate::shell::link::SendKind::Backup {
                    let mut s = LinkScreen::select(kind, [(VarType::Backup, VarName::default())]);
                    if let LinkScreen::Select { entries, .. } = &mut s {
                        entries.iter_mut().for_each(|e| e.chosen = true);
                    }
                    s
                } else {
                    let vars = crate::shell::mem::variables(hw.mem.ram(), &[])
                        .into_iter()
                        .map(|v| (v.ty, v.name));
                    LinkScreen::select(kind, vars)
                };
                self.shell = Shell::Link(screen);
            }
            LinkAction::Send(items) => self.start_send(hw, items),
            LinkAction::Receive => {
                self.stop_holder(hw);
                let rx =
                    tilink::ReceiveVars::new(tilink::MID_TI82, tilink::Timing::default()).asking();
                self.transfer = Some(Transfer::Receive {
                    rx,
                    stored: 0,
                    rename: None,
                });
                self.shell = Shell::Link(LinkScreen::Transfer {
                    phase: Phase::Waiting,
                    lines: Vec::new(),
                });
                self.link_wake = hw.now;
            }
            LinkAction::Overwrite => self.answer(hw, tilink::Decision::Accept),
            LinkAction::Omit => self.answer(hw, tilink::Decision::Skip),
            LinkAction::QuitTransfer => self.answer(hw, tilink::Decision::Exit),
            LinkAction::Rename(name) => {
                if let Some(Transfer::Receive { rename, .. }) = &mut self.transfer {
                    *rename = Some(name);
                }
                let ty = match &self.shell {
                    Shell::Link(LinkScreen::Rename { ty, .. }) => *ty,
                    _ => VarType::Program,
                };
                // The new name may be taken too: ask again about it.
                if program_exists(hw.mem.ram(), &name) {
                    if let Shell::Link(s) = &mut self.shell {
                        let lines = s.lines_mut().map(std::mem::take).unwrap_or_default();
                        *s = LinkScreen::Duplicate {
                            ty,
                            name,
                            sel: 0,
                            lines,
                        };
                    }
                } else {
                    self.answer(hw, tilink::Decision::Accept);
                }
            }
        }
    }

    /// Leaves the LINK screens for the home screen.
    pub(super) fn link_quit(&mut self, hw: &mut Hardware) {
        self.cancel_transfer(hw);
        self.shell = Shell::Home;
        self.st.shown = Shown::Home;
        self.st.dirty = true;
        self.link_wake = hw.now;
    }

    /// Breaks off a LINK SEND or RECEIVE in flight; false when there was none.
    pub(super) fn cancel_transfer(&mut self, hw: &mut Hardware) -> bool {
        let Some(t) = self.transfer.take() else {
            return false;
        };
        let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
        match t {
            Transfer::Send(mut snd, _) => snd.cancel(&mut ep),
            Transfer::Receive { mut rx, .. } => rx.cancel(&mut ep),
        }
        true
    }

    /// A silent exchange the holder is in the middle of ends when the user starts a transfer.
    pub(super) fn stop_holder(&mut self, hw: &mut Hardware) {
        if self.holder.is_busy() {
            self.holder
                .cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
        }
    }

    /// TRANSMIT: the selected variables (or the backup) go out, VAR by VAR (spec 1.7.2/1.7.3).
    pub(super) fn start_send(&mut self, hw: &mut Hardware, items: Vec<(VarType, VarName)>) {
        use tilink::VarSource;
        self.stop_holder(hw);
        let timing = tilink::Timing::default();
        self.sync_modes_hw(hw);
        let ram = hw.mem.ram();
        let snd = if items.iter().any(|(ty, _)| *ty == VarType::Backup) {
            match vat::backup_from_ram(ram) {
                Ok(b) => tilink::SendVars::backup(tilink::MID_TI82, timing, &b),
                Err(_) => return self.link_failed(ErrorKind::Memory),
            }
        } else {
            let vars: Vec<Variable> = items
                .iter()
                .filter_map(|(ty, name)| tilink::RamVars(ram).lookup(*ty, name))
                .collect();
            tilink::SendVars::new(tilink::MID_TI82, timing, &vars)
        };
        self.transfer = Some(Transfer::Send(snd, items));
        self.shell = Shell::Link(LinkScreen::Transfer {
            phase: Phase::Transmitting,
            lines: Vec::new(),
        });
        self.link_wake = hw.now;
    }

    pub(super) fn link_failed(&mut self, kind: ErrorKind) {
        self.shell = Shell::Link(LinkScreen::Failed {
            error: kind.ti_name().to_string(),
        });
        self.st.dirty = true;
    }

    /// The user's answer to the question about the arriving variable.
    pub(super) fn answer(&mut self, hw: &mut Hardware, d: tilink::Decision) {
        if let Some(Transfer::Receive { rx, rename, .. }) = &mut self.transfer {
            if d != tilink::Decision::Accept {
                *rename = None;
            }
            rx.decide(d);
        }
        if let Shell::Link(s) = &mut self.shell {
            let lines = s.lines_mut().map(std::mem::take).unwrap_or_default();
            *s = LinkScreen::Transfer {
                phase: Phase::Receiving,
                lines,
            };
        }
        self.st.dirty = true;
        self.link_wake = hw.now;
    }

    /// Drives a LINK SEND or RECEIVE and keeps its screen up to date.
    pub(super) fn poll_transfer(&mut self, hw: &mut Hardware) {
        let Some(mut t) = self.transfer.take() else {
            return;
        };
        let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
        match &mut t {
            Transfer::Send(snd, items) => {
                let p = snd.poll(&mut ep);
                let shown = match p {
                    tilink::Progress::Pending(_) => (snd.position() + 1).min(items.len()),
                    _ => items.len(),
                };
                if let Shell::Link(s) = &mut self.shell {
                    let have = s.lines_mut().map_or(0, |l| l.len());
                    for (ty, name) in items.iter().take(shown).skip(have) {
                        s.push_line(*ty, *name);
                        self.st.dirty = true;
                    }
                }
                match p {
                    tilink::Progress::Pending(w) => {
                        self.link_wake = wake_time(w, &hw.link, hw.now);
                        self.link_edge = w.edge;
                        self.transfer = Some(t);
                    }
                    tilink::Progress::Done(Ok(_)) => self.transfer_done(),
                    tilink::Progress::Done(Err(_)) => self.link_failed(ErrorKind::Link),
                }
            }
            Transfer::Receive { rx, stored, rename } => {
                let p = rx.poll(&mut ep);
                // Only the variables not stored yet are copied (this runs at every link
                // event, and the ones stored may be large).
                let got = match &p {
                    tilink::Progress::Done(Ok(got)) => got,
                    _ => rx.received(),
                };
                let arrived: Vec<Variable> = got.vars.iter().skip(*stored).cloned().collect();
                let backup = match &p {
                    tilink::Progress::Done(Ok(got)) => got.backup.clone(),
                    _ => None,
                };
                for mut v in arrived {
                    *stored += 1;
                    if let Some(n) = rename.take() {
                        v.name = n;
                    }
                    if vat::store(hw.mem.ram_mut(), &v).is_err() {
                        rx.cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
                        self.st.vat_hints.clear();
                        self.link_failed(ErrorKind::Memory);
                        return;
                    }
                    self.st.vat_hints.clear();
                    if let Shell::Link(s) = &mut self.shell {
                        if let LinkScreen::Transfer { phase, .. } = s {
                            *phase = Phase::Receiving;
                        }
                        s.push_line(v.var_type(), v.name);
                    }
                    self.st.dirty = true;
                }
                match p {
                    tilink::Progress::Pending(w) => {
                        self.link_wake = wake_time(w, &hw.link, hw.now);
                        self.link_edge = w.edge;
                        let question = rx.question().copied();
                        self.transfer = Some(t);
                        if let Some(h) = question {
                            self.ask(hw, h);
                        }
                    }
                    tilink::Progress::Done(Ok(_)) => {
                        if let Some(b) = backup {
                            if vat::restore_backup(hw.mem.ram_mut(), &b).is_err() {
                                self.link_failed(ErrorKind::Memory);
                                return;
                            }
                            self.st.vat_hints.clear();
                            self.read_modes(hw.mem.ram());
                            if let Shell::Link(s) = &mut self.shell {
                                s.push_line(VarType::Backup, VarName::default());
                            }
                        }
                        self.transfer_done();
                    }
                    tilink::Progress::Done(Err(_)) => self.link_failed(ErrorKind::Link),
                }
            }
        }
    }

    pub(super) fn transfer_done(&mut self) {
        if let Shell::Link(s) = &mut self.shell {
            let lines = s.lines_mut().map(std::mem::take).unwrap_or_default();
            *s = LinkScreen::Transfer {
                phase: Phase::Done,
                lines,
            };
        }
        self.st.dirty = true;
    }

    /// A header arrived in RECEIVE: accept it at once when its name is free and it fits, else
    /// put the question on the screen (once).
    pub(super) fn ask(&mut self, hw: &mut Hardware, h: Header) {
        let asking = matches!(
            &self.shell,
            Shell::Link(
                LinkScreen::Duplicate { .. }
                    | LinkScreen::Rename { .. }
                    | LinkScreen::MemoryFull { .. }
                    | LinkScreen::BackupWarning { .. }
            )
        );
        if asking {
            return;
        }
        let Header::Var { size, ty, name } = h else {
            self.shell = Shell::Link(LinkScreen::BackupWarning { sel: 0 });
            self.st.dirty = true;
            return;
        };
        let ram = hw.mem.ram();
        let renamed = match &self.transfer {
            Some(Transfer::Receive { rename, .. }) => *rename,
            _ => None,
        };
        let name = renamed.unwrap_or(name);
        let exists = if ty.is_program() {
            program_exists(ram, &name)
        } else {
            matches!(vat::find(ram, ty, &name), Ok(Some(_)))
        };
        let Shell::Link(s) = &mut self.shell else {
            return;
        };
        let lines = s.lines_mut().map(|l| l.clone()).unwrap_or_default();
        if exists {
            *s = LinkScreen::Duplicate {
                ty,
                name,
                sel: 0,
                lines,
            };
            self.st.dirty = true;
            return;
        }
        // Room for the data and its VAT entry, as the store will need it.
        let need = vat::space_needed(ty, &name, usize::from(size));
        let free = vat::Pointers::read(ram).map_or(0, |p| p.free());
        if need > free {
            *s = LinkScreen::MemoryFull {
                ty,
                name,
                sel: 0,
                lines,
            };
            self.st.dirty = true;
            return;
        }
        self.answer(hw, tilink::Decision::Accept);
    }

    /// Drives the link: the `Get(` requester while a program waits on it, else the holder
    /// whenever the OS would answer a silent request (waiting for a key: the home screen,
    /// menus, `Pause`, `Input`), and to the end of any exchange it started. A `Get(` that
    /// nobody answers ends with the variable unchanged (see `docs/tibasic.md`).
    pub(super) fn poll_link(&mut self, hw: &mut Hardware) {
        if self.transfer.is_some() {
            self.poll_transfer(hw);
            if self.st.dirty {
                self.present(hw);
            }
            return;
        }
        if let Some(req) = &mut self.requester {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            match req.poll(&mut ep) {
                tilink::Progress::Pending(w) => {
                    self.link_wake = wake_time(w, &hw.link, hw.now);
                    self.link_edge = w.edge;
                }
                tilink::Progress::Done(result) => {
                    self.requester = None;
                    self.link_wake = hw.now;
                    if let Ok(var) = result {
                        // The variable arrives under its own name, as the OS stores it.
                        if vat::store(hw.mem.ram_mut(), &var).is_err() {
                            self.interp.raise(ErrorKind::Memory);
                            return;
                        }
                    }
                    self.st.vat_hints.clear();
                    self.interp.finish_wait(None);
                }
            }
            return;
        }
        if let Some(snd) = &mut self.sender {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            match snd.poll(&mut ep) {
                tilink::Progress::Pending(w) => {
                    self.link_wake = wake_time(w, &hw.link, hw.now);
                    self.link_edge = w.edge;
                }
                tilink::Progress::Done(result) => {
                    self.sender = None;
                    self.link_wake = hw.now;
                    match result {
                        Ok(_) => self.interp.finish_wait(None),
                        // A peer that does not answer the RTS (another TI-82), refuses, or
                        // breaks off: ERR:TRANSMISSION (see docs/tibasic.md).
                        Err(_) => {
                            self.interp.raise(ErrorKind::Link);
                            if let Status::Error(err) = self.interp.status() {
                                self.show_error(err);
                            }
                            self.present(hw);
                        }
                    }
                }
            }
            return;
        }
        let answering = !self.off
            && match &self.shell {
                Shell::Running => matches!(self.interp.status_ref(), Status::Waiting(_)),
                _ => true,
            };
        if !answering && !self.holder.is_busy() {
            // Busy running: no answer until the program waits for a key again (the next key
            // scan looks).
            self.link_wake = self.next_scan;
            self.link_edge = false;
            return;
        }
        for _ in 0..4 {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            let mut vars = tilink::RamVars(hw.mem.ram());
            match self.holder.poll(&mut ep, &mut vars) {
                tilink::HolderPoll::Pending(w) => {
                    self.link_wake = wake_time(w, &hw.link, hw.now);
                    self.link_edge = w.edge;
                    return;
                }
                // Served, missing, declined or failed: listen again at once.
                tilink::HolderPoll::Event(_) => self.link_wake = hw.now,
            }
        }
    }
}

/// Whether a program (protected or not) named `name` is in the VAT.
pub(super) fn program_exists(ram: &[u8], name: &VarName) -> bool {
    [VarType::Program, VarType::ProtectedProgram]
        .iter()
        .any(|ty| matches!(vat::find(ram, *ty, name), Ok(Some(_))))
}

/// The variable a `Get(` asks for.
pub(super) fn get_request(t: &Target) -> Option<(tifiles::var::VarType, VarName)> {
    use tifiles::var::VarType;
    match t {
        Target::Var(v) => Some((VarType::Real, VarName::from_bytes(&[*v]))),
        Target::List(k) => Some((VarType::List, VarName::from_bytes(&[PREFIX_LIST, *k]))),
        Target::Matrix(k) => Some((VarType::Matrix, VarName::from_bytes(&[PREFIX_MATRIX, *k]))),
        _ => None,
    }
}

/// The variable a `Send(` pushes, read from the VAT. An undefined real is sent as 0 (it reads
/// as 0 everywhere else); an undefined list or matrix is ERR:UNDEFINED.
pub(super) fn send_variable(ram: &[u8], t: &Target) -> Result<Variable, ErrorKind> {
    use tilink::VarSource;
    let (ty, name) = get_request(t).ok_or(ErrorKind::DataType)?;
    match tilink::RamVars(ram).lookup(ty, &name) {
        Some(v) => Ok(v),
        None if ty == tifiles::var::VarType::Real => Ok(Variable {
            name,
            data: VarData::Real(tifiles::float::TiFloat::from_bytes(Real::ZERO.to_bcd())),
        }),
        None => Err(ErrorKind::Undefined),
    }
}

/// When to poll a link state machine next: its deadline, or the next line change the peer
/// has already sent when it waits for an edge.
pub(super) fn wake_time(w: tilink::Wake, port: &ti82_machine::LinkPort, now: u64) -> u64 {
    let at = if w.edge {
        w.at.min(port.next_peer_change().unwrap_or(u64::MAX))
    } else {
        w.at
    };
    at.max(now + 1)
}
