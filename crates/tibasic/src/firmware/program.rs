//! A running program: its statements in slices, and the screens it waits on (`Menu(`,
//! `Pause`, `Input`/`Prompt`, a link exchange); ON breaks it.

use super::*;

impl BasicFirmware {
    /// How many times a program's `getKey` has found no key since power-on: when this grows,
    /// a running program is polling for a key (a test harness waits on it).
    pub fn empty_key_polls(&self) -> u64 {
        self.st.empty_key_polls
    }

    /// A program waits for the user at a `Menu(`, `Pause` or `Input`/`Prompt` screen (not
    /// for the link), with no link exchange in progress.
    pub fn waiting_at_key_screen(&self) -> bool {
        self.shell == Shell::Running
            && matches!(
                self.interp.status_ref(),
                Status::Waiting(Wait::Menu { .. } | Wait::Pause | Wait::Input(_))
            )
            && self.requester.is_none()
            && self.sender.is_none()
            && !self.holder.is_busy()
    }

    /// Keys while a program waits in `Menu(`, `Pause` or `Input`.
    pub(super) fn key_wait(&mut self, hw: &mut Hardware, k: Key, wait: Wait) {
        match wait {
            Wait::Pause => {
                if k == Key::Enter {
                    self.interp.finish_wait(None);
                }
            }
            Wait::Menu { items, .. } => {
                let n = items.len().max(1);
                if let Some(i) = crate::shell::pick_item(k, &mut self.menu_sel, n) {
                    self.menu_sel = 0;
                    self.interp.finish_wait(Some(i));
                }
                self.st.dirty = true;
            }
            Wait::Input(items) => self.key_input(hw, k, &items),
            Wait::Get(_) | Wait::Send(_) | Wait::PrintScreen => {}
            Wait::GraphCursor(c) => self.key_graph_cursor(hw, k, c),
            // DispTable: ENTER goes on (the table does not scroll here [I]).
            Wait::Table(_) => {
                if k == Key::Enter {
                    self.interp.finish_wait(None);
                    self.st.shown = Shown::Home;
                    self.st.dirty = true;
                }
            }
        }
    }

    pub(super) fn start_input_item(
        &mut self,
        hw: &mut Hardware,
        items: &[(Option<Value>, Target)],
    ) {
        let Some((prompt, _)) = items.get(self.input_idx) else {
            return;
        };
        let mut os = Self::os(&mut self.st, hw);
        let codes = match prompt {
            Some(v) => value_codes(v, NumFormat::FLOAT).0,
            None => vec![font::code_for('?').unwrap_or(b'?')],
        };
        os.home_line(&codes, false);
        // The answer is typed on the prompt's line, after the prompt.
        let pending = std::mem::take(&mut os.st.scroll_pending);
        let ram = os.ram_mut();
        let (row, _) = screen::cursor(ram);
        let row = if pending {
            screen::ROWS - 1
        } else {
            row.saturating_sub(1)
        };
        screen::set_cursor(ram, row, codes.len().min(15));
        self.entry.clear();
        self.input_started = true;
    }

    pub(super) fn key_input(
        &mut self,
        hw: &mut Hardware,
        k: Key,
        items: &[(Option<Value>, Target)],
    ) {
        let Some(shift) = self.take_shift(k) else {
            return;
        };
        match (shift, k) {
            (_, Key::Enter) => {
                self.cursor_to_entry_end(hw);
                let entry = std::mem::take(&mut self.entry).tokens;
                let Some((_, target)) = items.get(self.input_idx).cloned() else {
                    self.input_idx = 0;
                    self.interp.finish_wait(None);
                    return;
                };
                let lines = compile(&entry);
                let value = match lines.first().map(|l| &l.stmt) {
                    Some(crate::ast::Stmt::Expr(e)) => {
                        let mut os = Self::os(&mut self.st, hw);
                        eval(&mut os, e)
                    }
                    _ => Err(ErrorKind::Syntax),
                };
                let stored = value.and_then(|v| {
                    let mut os = Self::os(&mut self.st, hw);
                    os.store(&target, v)
                });
                if let Err(kind) = stored {
                    self.interp.raise(kind);
                    return;
                }
                // Move below the answer.
                self.next_home_line(hw);
                self.input_idx += 1;
                self.input_started = false;
                if self.input_idx >= items.len() {
                    self.input_idx = 0;
                    self.interp.finish_wait(None);
                } else {
                    // `Prompt A,B`: the next variable's prompt, on the next line.
                    self.start_input_item(hw, items);
                    self.st.dirty = true;
                }
            }
            (_, Key::Clear) => {
                self.entry.clear();
                self.show_input(hw);
            }
            (shift, k) if self.open_catalog(shift, k, CatalogFrom::Input) => {}
            _ => {
                if self.edit_entry(shift, k, INPUT_ENTRY_MAX) {
                    self.show_input(hw);
                }
            }
        }
    }

    /// The answer being typed, after its prompt (wrapping and scrolling as on the home
    /// screen).
    pub(super) fn show_input(&mut self, hw: &mut Hardware) {
        self.draw_entry_line(hw);
    }

    /// Runs program statements until the budget, a wait, or the end.
    pub(super) fn run_statements(&mut self, hw: &mut Hardware, until: u64) {
        let from_entry = self.interp.program_name().is_empty();
        for _ in 0..SLICE {
            if hw.now >= until || hw.now >= self.next_scan {
                break;
            }
            // One test per statement when no debugger is attached.
            if self.debug.is_some() && self.debug_stop(hw) {
                break;
            }
            let status = {
                let mut os = Self::os(&mut self.st, hw);
                self.interp.step(&mut os)
            };
            self.statements += 1;
            if self.st.dirty {
                self.present(hw);
            } else if self.indicator_due {
                self.present_indicator(hw);
            }
            match status {
                Status::Running => {}
                Status::Waiting(w) => {
                    self.begin_wait(hw, w);
                    break;
                }
                Status::Done | Status::Idle => {
                    self.finished(hw, from_entry);
                    self.present(hw);
                    break;
                }
                Status::Error(err) => {
                    self.show_error(err);
                    self.present(hw);
                    break;
                }
            }
        }
    }

    pub(super) fn begin_wait(&mut self, hw: &mut Hardware, w: Wait) {
        match w {
            Wait::Input(items) => {
                if !self.input_started {
                    self.input_idx = 0;
                    self.start_input_item(hw, &items);
                }
            }
            Wait::Get(target) => {
                if self.requester.is_none() {
                    match get_request(&target) {
                        Some((ty, name)) => {
                            self.requester = Some(tilink::Requester::new(
                                tilink::MID_TI82,
                                tilink::Timing::default(),
                                ty,
                                name,
                            ));
                            self.link_wake = hw.now;
                        }
                        None => self.interp.raise(ErrorKind::DataType),
                    }
                }
            }
            Wait::Send(target) => {
                if self.sender.is_none() {
                    match send_variable(hw.mem.ram(), &target) {
                        Ok(var) => {
                            self.sender = Some(
                                tilink::SendVars::new(
                                    tilink::MID_TI82,
                                    tilink::Timing::default(),
                                    &[var],
                                )
                                .with_rts()
                                .eot_ack_optional(),
                            );
                            self.link_wake = hw.now;
                        }
                        Err(kind) => self.interp.raise(kind),
                    }
                }
            }
            Wait::PrintScreen => {
                if self.sender.is_none() {
                    // The display as it is (spec 1.7.5: VAR of type 0Eh, 768 bytes, name all
                    // zeros; ACK, CTS, ACK, DATA, ACK; no EOT).
                    let item = tilink::Outgoing::screen(&self.pushed);
                    self.sender = Some(tilink::SendVars::items(
                        tilink::MID_TI82,
                        tilink::Timing::default(),
                        vec![item],
                        false,
                    ));
                    self.link_wake = hw.now;
                }
            }
            Wait::Menu { .. } | Wait::Pause | Wait::Table(_) | Wait::GraphCursor(_) => {}
        }
        self.st.dirty = true;
        self.present(hw);
    }

    pub(super) fn on_key(&mut self, hw: &mut Hardware) {
        // ON breaks a transfer: the screen shows the link error (its 1:Quit returns to the
        // LINK menu).
        if self.cancel_transfer(hw) {
            self.link_failed(ErrorKind::Link);
            self.present(hw);
            return;
        }
        if self.program_active() {
            // ON breaks a running or waiting program (spec §6.1), a menu open over its
            // `Input` included.
            self.interp.raise(ErrorKind::Break);
            if let Status::Error(err) = self.interp.status() {
                self.show_error(err);
            }
            if let Some(mut req) = self.requester.take() {
                req.cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
            }
            if let Some(mut snd) = self.sender.take() {
                snd.cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
            }
            self.present(hw);
        }
    }
}
