//! The runtime's part of a save state: written in one format version, read back in every
//! earlier one, and checked whole before it replaces the running runtime.

use super::*;
use crate::shell::format::FormatCursor;
use crate::shell::statplot::StatPlotScreen;

impl BasicFirmware {
    pub(super) fn save(&self, w: &mut StateWriter) {
        w.u8(10); // format version of this firmware's state
        self.interp.save(w);
        let s = &self.st;
        w.u8(match s.shown {
            Shown::Home => 0,
            Shown::Graph => 1,
        });
        w.bool(s.modes.degrees);
        w.bool(s.modes.axes);
        w.bool(s.modes.grid);
        w.bool(s.modes.labels);
        // Low nibble: Fix digits or F for Float; high nibble: Normal 0 (F with Float), Sci 1,
        // Eng 2. Normal Float stays FFh and Normal Fix n stays n, as before Sci/Eng existed.
        let notation = match s.modes.notation {
            Notation::Normal => 0,
            Notation::Sci => 1,
            Notation::Eng => 2,
        };
        w.u8(match (s.modes.fix, notation) {
            (None, 0) => 0xFF,
            (None, n) => n << 4 | 0x0F,
            (Some(d), n) => n << 4 | d,
        });
        w.u8(s.modes.graph);
        w.bool(s.modes.dot);
        w.bool(s.modes.simul);
        w.bool(s.modes.split);
        w.bool(s.scroll_pending);
        w.bytes(&self.scanner.down);
        match self.scanner.held {
            Some((c, t)) => {
                w.u8(c);
                w.u64(t);
            }
            None => {
                w.u8(0);
                w.u64(0);
            }
        }
        w.bool(self.scanner.on_down);
        save_shell(&self.shell, w);
        w.u8(match self.shift {
            Shift::None => 0,
            Shift::Second => 1,
            Shift::Alpha => 2,
            Shift::AlphaLock => 3,
        });
        w.bytes(&self.entry.tokens);
        w.bytes(self.history.last().unwrap_or_default());
        w.u32(self.menu_sel as u32);
        w.u32(self.input_idx as u32);
        w.bool(self.input_started);
        self.holder.save(w);
        match &self.requester {
            Some(r) => {
                w.bool(true);
                r.save(w);
            }
            None => w.bool(false),
        }
        match &self.sender {
            Some(s) => {
                w.bool(true);
                s.save(w);
            }
            None => w.bool(false),
        }
        match &self.transfer {
            None => w.u8(0),
            Some(Transfer::Send(snd, items)) => {
                w.u8(1);
                snd.save(w);
                w.u32(items.len() as u32);
                for (ty, name) in items {
                    w.u8(ty.to_byte());
                    w.bytes(&name.0);
                }
            }
            Some(Transfer::Receive { rx, stored, rename }) => {
                w.u8(2);
                rx.save(w);
                w.u32(*stored as u32);
                w.bytes(&rename.map(|n| n.0.to_vec()).unwrap_or_default());
            }
        }
        w.u64(self.link_wake);
        w.bool(self.link_edge);
        w.u64(self.next_scan);
        w.bytes(&self.pushed);
        w.bool(self.lcd_ready);
        w.u8(self.indicator);
        w.u64(self.statements);
        match &self.editor {
            Some(e) => {
                w.bool(true);
                e.save(w);
            }
            None => w.bool(false),
        }
        w.bool(self.off);
        w.u64(self.last_activity);
        w.u64(self.contrast_shown_until);
        // Version 7: the entry line's cursor, the ENTRY storage, the cursor's blink.
        w.u32(self.entry.pos as u32);
        w.bool(self.entry.insert);
        w.u32(self.history.entries.len() as u32);
        for e in &self.history.entries {
            w.bytes(e);
        }
        w.u32(self.history.recall as u32);
        w.u8(self.blink);
        match &self.matrix {
            Some(m) => {
                w.bool(true);
                m.save(w);
            }
            None => w.bool(false),
        }
        // Version 8: the statistics variables, the window variables kept outside RAM, the
        // window before the last zoom, whether the graph must be drawn again.
        w.u32(self.st.stats.len() as u32);
        for (k, v) in &self.st.stats {
            w.u8(*k);
            crate::interp::put_real(w, *v);
        }
        w.bool(self.st.results_shown);
        w.u32(self.st.window_extra.len() as u32);
        for (k, v) in &self.st.window_extra {
            w.u8(*k);
            crate::interp::put_real(w, *v);
        }
        match &self.st.zprevious {
            Some(win) => {
                w.bool(true);
                for v in win {
                    crate::interp::put_real(w, *v);
                }
            }
            None => w.bool(false),
        }
        w.bool(self.st.graph_dirty);
        w.bytes(&self.st.reg_eq);
        w.bool(self.st.modes.web);
        w.bool(self.st.modes.indpnt_ask);
        w.bool(self.st.modes.depend_ask);
        w.u32(self.st.tbl_input.len() as u32);
        for v in &self.st.tbl_input {
            crate::interp::put_real(w, *v);
        }
        for p in &self.st.plots {
            match p {
                Some(p) => {
                    w.bool(true);
                    w.bool(p.on);
                    w.u8(p.kind);
                    w.u8(p.lists[0]);
                    w.u8(p.lists[1]);
                    w.u8(p.mark);
                }
                None => w.bool(false),
            }
        }
        // Version 9: FORMAT's RectGC/PolarGC and CoordOn/CoordOff lines.
        w.bool(self.st.modes.polar_gc);
        w.bool(self.st.modes.coord_off);
        // Version 10: the statistics results that ▲ ▼ scroll, the SetUp… lists.
        match &self.st.results_view {
            Some(v) => {
                w.bool(true);
                w.bytes(&v.title);
                w.u32(v.lines.len() as u32);
                for l in &v.lines {
                    w.bytes(l);
                }
                w.u32(v.top as u32);
            }
            None => w.bool(false),
        }
        let s = &self.st.stat_setup;
        for b in s.one.iter().chain(&s.two) {
            w.u8(*b);
        }
        // …and the screen a menu is open over.
        match &self.parked {
            Some(s) => {
                w.bool(true);
                save_shell(s, w);
            }
            None => w.bool(false),
        }
    }

    pub(super) fn load(&mut self, data: &[u8]) -> Result<(), StateError> {
        let mut r = StateReader::new(data);
        let mut f = BasicFirmware::new();
        // Version 1 had no `Send(` sender, version 2 no LINK screens, version 3 no MODE
        // screen, version 4 no program editor, version 5 no power state, version 6 no entry
        // cursor nor ENTRY storage (one last entry), version 7 no statistics or extra window
        // variables, version 8 no STAT PLOT or FORMAT screens, version 9 no statistics
        // results screen, SetUp…, table cursor, free or Par/Pol/Seq graph cursor.
        let version = r.u8()?;
        if !(1..=10).contains(&version) {
            return Err(StateError::Corrupt(
                "unknown TI-BASIC runtime state version",
            ));
        }
        f.interp = Interp::load(&mut r)?;
        f.st.shown = if r.u8()? == 1 {
            Shown::Graph
        } else {
            Shown::Home
        };
        f.st.modes.degrees = r.bool()?;
        f.st.modes.axes = r.bool()?;
        f.st.modes.grid = r.bool()?;
        f.st.modes.labels = r.bool()?;
        let mode = r.u8()?;
        f.st.modes.fix = match mode & 0x0F {
            0x0F => None,
            d => Some(d.min(9)),
        };
        f.st.modes.notation = match mode >> 4 {
            1 => Notation::Sci,
            2 => Notation::Eng,
            _ => Notation::Normal,
        };
        if version >= 4 {
            f.st.modes.graph = r.u8()?.min(3);
            f.st.modes.dot = r.bool()?;
            f.st.modes.simul = r.bool()?;
            f.st.modes.split = r.bool()?;
        }
        f.st.scroll_pending = r.bool()?;
        let down = r.bytes()?;
        if down.len() != 7 {
            return Err(StateError::Corrupt("keypad scanner state"));
        }
        f.scanner.down.copy_from_slice(down);
        let (c, t) = (r.u8()?, r.u64()?);
        f.scanner.held = (c != 0).then_some((c, t));
        f.scanner.on_down = r.bool()?;
        f.shell = load_shell(&mut r, version)?;
        f.shift = match r.u8()? {
            1 => Shift::Second,
            2 => Shift::Alpha,
            3 => Shift::AlphaLock,
            _ => Shift::None,
        };
        f.entry = EntryLine::with(r.bytes()?);
        let last_entry = r.bytes()?.to_vec();
        if !last_entry.is_empty() {
            f.history.entries.push(last_entry);
        }
        f.menu_sel = r.u32()? as usize;
        f.input_idx = r.u32()? as usize;
        f.input_started = r.bool()?;
        f.holder = tilink::Holder::load(&mut r)?;
        f.requester = if r.bool()? {
            Some(tilink::Requester::load(&mut r)?)
        } else {
            None
        };
        f.sender = if version >= 2 && r.bool()? {
            Some(tilink::SendVars::load(&mut r)?)
        } else {
            None
        };
        f.transfer = match if version >= 3 { r.u8()? } else { 0 } {
            0 => None,
            1 => {
                let snd = tilink::SendVars::load(&mut r)?;
                let n = r.u32()? as usize;
                if n > 4096 {
                    return Err(StateError::Corrupt("LINK send items"));
                }
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    let ty = VarType::from_byte(r.u8()?);
                    let name = r.bytes()?;
                    if name.len() != 8 {
                        return Err(StateError::Corrupt("LINK send item name"));
                    }
                    items.push((ty, VarName::from_bytes(name)));
                }
                Some(Transfer::Send(snd, items))
            }
            2 => {
                let rx = tilink::ReceiveVars::load(&mut r)?;
                let stored = r.u32()? as usize;
                let rename = match r.bytes()? {
                    [] => None,
                    n if n.len() == 8 => Some(VarName::from_bytes(n)),
                    _ => return Err(StateError::Corrupt("LINK rename")),
                };
                if stored > rx.received().vars.len() {
                    return Err(StateError::Corrupt("LINK received count"));
                }
                Some(Transfer::Receive { rx, stored, rename })
            }
            _ => return Err(StateError::Corrupt("LINK transfer")),
        };
        f.link_wake = r.u64()?;
        f.link_edge = r.bool()?;
        f.next_scan = r.u64()?;
        let pushed = r.bytes()?;
        if pushed.len() != SCREEN_BYTES {
            return Err(StateError::Corrupt("runtime LCD mirror"));
        }
        f.pushed.copy_from_slice(pushed);
        f.lcd_ready = r.bool()?;
        f.indicator = r.u8()?;
        f.statements = r.u64()?;
        if version >= 5 && r.bool()? {
            f.editor = Some(Editor::load(&mut r)?);
        }
        if version >= 6 {
            f.off = r.bool()?;
            f.last_activity = r.u64()?;
            f.contrast_shown_until = r.u64()?;
        } else {
            // The idle count starts at the save (the next key scan is a moment after it),
            // not at power-on.
            f.last_activity = f.next_scan;
        }
        if version >= 7 {
            f.entry.pos = r.u32()? as usize;
            f.entry.insert = r.bool()?;
            let n = r.u32()? as usize;
            if n > crate::shell::entry::ENTRY_STORAGE {
                return Err(StateError::Corrupt("ENTRY storage"));
            }
            f.history.entries.clear();
            for _ in 0..n {
                f.history.entries.push(r.bytes()?.to_vec());
            }
            f.history.recall = r.u32()? as usize;
            f.blink = r.u8()?;
            if r.bool()? {
                f.matrix = Some(MatrixEditor::load(&mut r)?);
            }
        }
        if version >= 8 {
            let n = r.u32()? as usize;
            if n > 0x20 {
                return Err(StateError::Corrupt("statistics variable count"));
            }
            for _ in 0..n {
                let k = r.u8()?;
                let v = crate::interp::get_real(&mut r)?;
                if !(0x02..=0x20).contains(&k) {
                    return Err(StateError::Corrupt("statistics variable"));
                }
                f.st.stats.push((k, v));
            }
            f.st.results_shown = r.bool()?;
            let n = r.u32()? as usize;
            if n > 0x2A {
                return Err(StateError::Corrupt("window variable count"));
            }
            for _ in 0..n {
                let k = r.u8()?;
                let v = crate::interp::get_real(&mut r)?;
                if crate::os::window_default(k).is_none() {
                    return Err(StateError::Corrupt("window variable"));
                }
                f.st.window_extra.push((k, v));
            }
            if r.bool()? {
                let mut win = [Real::ZERO; 6];
                for v in win.iter_mut() {
                    *v = crate::interp::get_real(&mut r)?;
                }
                f.st.zprevious = Some(win);
            }
            f.st.graph_dirty = r.bool()?;
            f.st.reg_eq = r.bytes()?.to_vec();
            if f.st.reg_eq.len() > 400 {
                return Err(StateError::Corrupt("RegEQ"));
            }
            f.st.modes.web = r.bool()?;
            f.st.modes.indpnt_ask = r.bool()?;
            f.st.modes.depend_ask = r.bool()?;
            let n = r.u32()? as usize;
            if n > 99 {
                return Err(StateError::Corrupt("TblInput"));
            }
            for _ in 0..n {
                f.st.tbl_input.push(crate::interp::get_real(&mut r)?);
            }
            for slot in f.st.plots.iter_mut() {
                if r.bool()? {
                    let p = crate::os::StatPlot {
                        on: r.bool()?,
                        kind: r.u8()?,
                        lists: [r.u8()?, r.u8()?],
                        mark: r.u8()?,
                    };
                    if !p.valid() {
                        return Err(StateError::Corrupt("stat plot"));
                    }
                    *slot = Some(p);
                }
            }
        }
        if version >= 9 {
            f.st.modes.polar_gc = r.bool()?;
            f.st.modes.coord_off = r.bool()?;
        }
        if version >= 10 {
            if r.bool()? {
                let corrupt = || StateError::Corrupt("statistics results");
                let mut v = crate::stats::ResultsView {
                    title: r.bytes()?.to_vec(),
                    ..Default::default()
                };
                let n = r.u32()? as usize;
                if n > 32 || v.title.len() > 32 {
                    return Err(corrupt());
                }
                for _ in 0..n {
                    let l = r.bytes()?.to_vec();
                    if l.len() > 64 {
                        return Err(corrupt());
                    }
                    v.lines.push(l);
                }
                v.top = r.u32()? as usize;
                if v.top > n {
                    return Err(corrupt());
                }
                f.st.results_view = Some(v);
            }
            let s = &mut f.st.stat_setup;
            for b in s.one.iter_mut().chain(s.two.iter_mut()) {
                *b = r.u8()?;
            }
            if !s.valid() {
                return Err(StateError::Corrupt("SetUp… lists"));
            }
            if r.bool()? {
                f.parked = Some(Box::new(load_shell(&mut r, version)?));
            }
        }
        r.done()?;
        f.validate()?;
        *self = f;
        Ok(())
    }

    /// The invariants the runtime relies on, checked on a freshly loaded state before it
    /// replaces the running one: indices inside what they index, times that cannot overflow.
    pub(super) fn validate(&self) -> Result<(), StateError> {
        let corrupt = |what| Err(StateError::Corrupt(what));
        // A menu over a screen has that screen parked under it, and only then; only the
        // screens with a typed line, and the graphing screens the ZOOM menu opens over, are
        // parked.
        let over_screen = matches!(
            self.shell,
            Shell::Catalog {
                from: CatalogFrom::Screen,
                ..
            }
        );
        let parkable = self.parked.as_deref().is_some_and(|s| {
            matches!(
                s,
                Shell::YEditor(_)
                    | Shell::Window(_)
                    | Shell::TblSet(_)
                    | Shell::Table(_)
                    | Shell::StatEdit(_)
                    | Shell::Graph(_)
                    | Shell::GraphFree(_)
                    | Shell::GraphModeTrace(_)
                    | Shell::Format(_)
                    | Shell::StatPlot(_)
                    | Shell::Mode(_)
            )
        });
        if over_screen != self.parked.is_some() || (self.parked.is_some() && !parkable) {
            return corrupt("menu over a screen");
        }
        match self.interp.status() {
            Status::Waiting(Wait::Menu { items, .. }) if self.menu_sel >= items.len() => {
                return corrupt("Menu( selection past its items");
            }
            Status::Waiting(Wait::Input(items)) if self.input_idx >= items.len() => {
                return corrupt("Prompt item past its variables");
            }
            _ => {}
        }
        if self.menu_sel >= 7 || self.input_idx >= crate::interp::MAX_INPUT_ITEMS {
            return corrupt("menu or prompt position");
        }
        if let Some((code, next)) = self.scanner.held {
            if !(1..=56).contains(&code) || next > TIME_LIMIT {
                return corrupt("held key");
            }
        }
        // (`link_wake` is only compared: `u64::MAX` there means no link event is due.)
        if self.next_scan > TIME_LIMIT
            || self.statements > TIME_LIMIT
            || self.last_activity > TIME_LIMIT
            || self.contrast_shown_until > TIME_LIMIT
        {
            return corrupt("runtime clock");
        }
        if self.entry.tokens.len() > 1024 || !self.entry.valid() {
            return corrupt("entry line");
        }
        if !self.history.valid() {
            return corrupt("ENTRY storage");
        }
        if self.blink >= BLINK_PERIOD {
            return corrupt("cursor blink");
        }
        // The editor screen needs the program it edits.
        let editing = matches!(
            self.shell,
            Shell::Editor
                | Shell::Catalog {
                    from: CatalogFrom::Editor,
                    ..
                }
        );
        if editing != self.editor.is_some() {
            return corrupt("program editor without its program, or the reverse");
        }
        // A menu over the matrix editor keeps that editor, and only then.
        let over_matrix = matches!(
            self.shell,
            Shell::Catalog {
                from: CatalogFrom::Matrix,
                ..
            }
        );
        if over_matrix != self.matrix.is_some() {
            return corrupt("menu over the matrix editor without it, or the reverse");
        }
        // A menu opened from a program's `Input` needs the program waiting there.
        if let Shell::Catalog {
            from: CatalogFrom::Input,
            ..
        } = self.shell
        {
            if !matches!(self.interp.status_ref(), Status::Waiting(Wait::Input(_))) {
                return corrupt("menu over an Input that is not waiting");
            }
        }
        // A LINK transfer screen or question needs its transfer (else it waits for ever, ON
        // and 2nd QUIT doing nothing), and a transfer needs its screen: true for sending.
        let screen_sends = match &self.shell {
            Shell::Link(LinkScreen::Transfer { phase, .. }) => match phase {
                Phase::Transmitting => Some(true),
                Phase::Waiting | Phase::Receiving => Some(false),
                Phase::Done => None,
            },
            Shell::Link(
                LinkScreen::Duplicate { .. }
                | LinkScreen::Rename { .. }
                | LinkScreen::MemoryFull { .. }
                | LinkScreen::BackupWarning { .. },
            ) => Some(false),
            _ => None,
        };
        let transfer_sends = self
            .transfer
            .as_ref()
            .map(|t| matches!(t, Transfer::Send(..)));
        if screen_sends != transfer_sends {
            return corrupt("LINK screen without its transfer, or the reverse");
        }
        // A LINK transfer and a program's `Get(`/`Send(` never run together.
        if self.transfer.is_some() && (self.requester.is_some() || self.sender.is_some()) {
            return corrupt("two link exchanges at once");
        }
        Ok(())
    }
}

/// One screen of the shell, by its tag (also a menu's parked screen).
fn save_shell(shell: &Shell, w: &mut StateWriter) {
    match shell {
        Shell::Home => w.u8(0),
        Shell::ProgramMenu { sel, tab } => {
            w.u8(1);
            w.u32(*sel as u32);
            w.u8(*tab);
        }
        Shell::Running => w.u8(2),
        Shell::Error { err, sel } => {
            w.u8(3);
            w.bytes(err.kind.to_string().as_bytes());
            w.bytes(&err.program);
            w.u32(err.offset);
            w.u32(*sel as u32);
        }
        Shell::Link(screen) => {
            w.u8(4);
            screen.save(w);
        }
        Shell::Mem(m) => {
            w.u8(6);
            m.save(w);
        }
        Shell::Catalog { cur, from } => {
            w.u8(7);
            w.u32(cur.menu as u32);
            w.u32(cur.tab as u32);
            w.u32(cur.sel as u32);
            w.u8(match from {
                CatalogFrom::Home => 0,
                CatalogFrom::Input => 1,
                CatalogFrom::Editor => 2,
                CatalogFrom::Matrix => 3,
                CatalogFrom::Screen => 4,
            });
        }
        Shell::Editor => w.u8(8),
        Shell::Matrix(m) => {
            w.u8(9);
            m.save(w);
        }
        Shell::YEditor(ed) => {
            w.u8(11);
            ed.save(w);
        }
        Shell::Table(t) => {
            w.u8(21);
            t.save(w);
        }
        Shell::Window(win) => {
            w.u8(14);
            win.save(w);
        }
        Shell::TblSet(t) => {
            w.u8(15);
            t.save(w);
        }
        Shell::Graph(t) => {
            w.u8(12);
            match t {
                Some(t) => {
                    w.bool(true);
                    t.save(w);
                }
                None => w.bool(false),
            }
        }
        Shell::StatEdit(ed) => {
            w.u8(10);
            ed.save(w);
        }
        Shell::StatSetup(c) => {
            w.u8(20);
            c.save(w);
        }
        Shell::GraphFree(c) => {
            w.u8(22);
            c.save(w);
        }
        Shell::GraphModeTrace(t) => {
            w.u8(23);
            t.save(w);
        }
        Shell::StatPlot(s) => {
            w.u8(16);
            match *s {
                StatPlotScreen::Menu { sel } => {
                    w.u8(0);
                    w.u8(sel as u8);
                }
                StatPlotScreen::Editor { plot, row, col } => {
                    w.u8(1 + plot as u8);
                    w.u8(row as u8);
                    w.u8(col as u8);
                }
            }
        }
        Shell::Format(c) => {
            w.u8(17);
            w.u8(c.row as u8);
            w.u8(c.col as u8);
        }
        Shell::Mode(c) => {
            w.u8(5);
            w.u32(c.row as u32);
            w.u32(c.col as u32);
        }
    }
}

/// A screen saved by [`save_shell`] in format `version`.
fn load_shell(r: &mut StateReader, version: u8) -> Result<Shell, StateError> {
    Ok(match r.u8()? {
        0 => Shell::Home,
        1 => {
            let sel = r.u32()? as usize;
            let tab = if version >= 5 { r.u8()? } else { 0 };
            if tab > 2 {
                return Err(StateError::Corrupt("PRGM menu tab"));
            }
            Shell::ProgramMenu { sel, tab }
        }
        2 => Shell::Running,
        3 => {
            let name = String::from_utf8_lossy(r.bytes()?).to_string();
            let program = r.bytes()?.to_vec();
            let offset = r.u32()?;
            let sel = (r.u32()? as usize).min(1);
            Shell::Error {
                err: ProgramError {
                    kind: ErrorKind::from_text(&name),
                    program,
                    offset,
                },
                sel,
            }
        }
        4 => Shell::Link(LinkScreen::load(r)?),
        6 => Shell::Mem(MemScreen::load(r)?),
        8 => Shell::Editor,
        9 if version >= 7 => Shell::Matrix(MatrixEditor::load(r)?),
        10 if version >= 8 => Shell::StatEdit(crate::shell::stat::ListEditor::load(r)?),
        20 if version >= 10 => Shell::StatSetup(crate::shell::statsetup::SetUpCursor::load(r)?),
        13 if version >= 8 => Shell::Table(crate::shell::table::TableScreen::new(
            crate::table::TableData::load(r)?,
        )),
        23 if version >= 10 => Shell::GraphModeTrace(crate::shell::graphing::ModeTrace::load(r)?),
        22 if version >= 10 => Shell::GraphFree(crate::shell::graphing::FreeCursor::load(r)?),
        21 if version >= 10 => Shell::Table(crate::shell::table::TableScreen::load(r)?),
        15 if version >= 8 => Shell::TblSet(crate::shell::tblset::TblSet::load(r)?),
        14 if version >= 8 => Shell::Window(crate::shell::window::WindowEditor::load(r)?),
        11 if version >= 8 => Shell::YEditor(crate::shell::graphing::YEditor::load(r)?),
        12 if version >= 8 => Shell::Graph(if r.bool()? {
            Some(crate::shell::graphing::Trace::load(r)?)
        } else {
            None
        }),
        16 if version >= 9 => {
            let s = match r.u8()? {
                0 => StatPlotScreen::Menu {
                    sel: usize::from(r.u8()?),
                },
                p @ 1..=3 => StatPlotScreen::Editor {
                    plot: usize::from(p - 1),
                    row: usize::from(r.u8()?),
                    col: usize::from(r.u8()?),
                },
                _ => return Err(StateError::Corrupt("STAT PLOT screen")),
            };
            if !s.valid() {
                return Err(StateError::Corrupt("STAT PLOT cursor"));
            }
            Shell::StatPlot(s)
        }
        17 if version >= 9 => {
            let c = FormatCursor {
                row: usize::from(r.u8()?),
                col: usize::from(r.u8()?),
            };
            if !c.valid() {
                return Err(StateError::Corrupt("FORMAT cursor"));
            }
            Shell::Format(c)
        }
        7 => {
            let cur = CatalogCursor {
                menu: r.u32()? as usize,
                tab: r.u32()? as usize,
                sel: r.u32()? as usize,
            };
            // Version 4 kept only "from a program's Input".
            let from = match r.u8()? {
                0 => CatalogFrom::Home,
                1 => CatalogFrom::Input,
                2 if version >= 5 => CatalogFrom::Editor,
                3 if version >= 7 => CatalogFrom::Matrix,
                4 if version >= 10 => CatalogFrom::Screen,
                _ => return Err(StateError::Corrupt("menu origin")),
            };
            if !cur.valid() {
                return Err(StateError::Corrupt("menu cursor"));
            }
            Shell::Catalog { cur, from }
        }
        5 => {
            let c = ModeCursor {
                row: r.u32()? as usize,
                col: r.u32()? as usize,
            };
            if !c.valid() {
                return Err(StateError::Corrupt("MODE cursor"));
            }
            Shell::Mode(c)
        }
        _ => return Err(StateError::Corrupt("runtime shell state")),
    })
}
