//! VAT tests on a 32 KiB RAM image: hand-built layouts as the OS leaves them
//! (spec 7.3), and create / read / replace / delete through our writer.

mod common;

use common::{f, tok};
use tifiles::vat::{self, Pointers, RAM_BASE};
use tifiles::{TiFloat, VarData, VarName, VarType, Variable};

fn at(a: u16) -> usize {
    usize::from(a - RAM_BASE)
}

fn set_word(ram: &mut [u8], a: u16, v: u16) {
    ram[at(a)..at(a) + 2].copy_from_slice(&v.to_le_bytes());
}

/// A RAM image laid out by hand like spec 7.3's example: Y0 at 8D24 (empty),
/// L1 = {4,4,0} after it, program POLY after that.
fn hand_image() -> Vec<u8> {
    let mut ram = vec![0u8; 0x8000];
    let mut data = 0x8D24u16;
    let mut put = |ram: &mut Vec<u8>, bytes: &[u8]| {
        let a = data;
        ram[at(a)..at(a) + bytes.len()].copy_from_slice(bytes);
        data += bytes.len() as u16;
        a
    };
    let y0 = put(&mut ram, &[0, 0]);
    let mut l1 = vec![3, 0];
    for x in ["4", "4", "0"] {
        l1.extend_from_slice(&f(x).to_bytes());
    }
    let l1a = put(&mut ram, &l1);
    let polya = put(&mut ram, &[2, 0, 0xDE, 0x31]);
    // VAT, read downward from FE6E.
    let mut p = 0xFE6Eu16;
    let mut entry = |ram: &mut Vec<u8>, bytes: &[u8]| {
        for (k, b) in bytes.iter().enumerate() {
            ram[at(p) - k] = *b;
        }
        p -= bytes.len() as u16;
    };
    entry(
        &mut ram,
        &[0x23, y0 as u8, (y0 >> 8) as u8, 0x5E, 0x19, 0x00],
    );
    entry(
        &mut ram,
        &[0x01, l1a as u8, (l1a >> 8) as u8, 0x5D, 0x00, 0x00],
    );
    entry(
        &mut ram,
        &[
            0x05,
            polya as u8,
            (polya >> 8) as u8,
            4,
            b'P',
            b'O',
            b'L',
            b'Y',
        ],
    );
    set_word(&mut ram, vat::TEMP_MEM, data);
    set_word(&mut ram, vat::FP_BASE, data);
    set_word(&mut ram, vat::FPS, data);
    set_word(&mut ram, vat::OPS, p);
    set_word(&mut ram, vat::OP_BASE, p);
    set_word(&mut ram, vat::P_TEMP, p);
    ram
}

#[test]
fn reads_hand_built_image() {
    let ram = hand_image();
    let es = vat::entries(&ram).unwrap();
    let names: Vec<String> = es.iter().map(|e| e.display_name()).collect();
    assert_eq!(names, ["Y0", "L1", "POLY"]);
    assert_eq!(es[0].var_type(), VarType::Equation);
    assert_eq!(es[0].type_byte, 0x23);
    assert_eq!(es[0].data_addr, 0x8D24);
    assert_eq!(es[1].data_addr, 0x8D26);
    assert_eq!(es[2].entry_len, 8);
    assert_eq!(
        vat::read_list(&ram, 1).unwrap().unwrap(),
        [f("4"), f("4"), f("0")]
    );
    assert_eq!(vat::read_list(&ram, 2).unwrap(), None);
    let p = vat::read(&ram, VarType::Program, &VarName::program("POLY").unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(p.data, VarData::Program(vec![0xDE, 0x31]));
}

#[test]
fn create_read_delete_recreate() {
    let mut ram = hand_image();
    let before = Pointers::read(&ram).unwrap();
    // Add a real, a matrix and a second program.
    let a = Variable {
        name: VarName::real('A').unwrap(),
        data: VarData::Real(f("-2")),
    };
    let m = common::examples()
        .into_iter()
        .find(|(e, _)| *e == "82m")
        .unwrap()
        .1;
    let prog = Variable::program("MANCALA", tok("ClrHome\nDisp \"MANCALA\"")).unwrap();
    vat::store(&mut ram, &a).unwrap();
    vat::store(&mut ram, &m).unwrap();
    vat::store(&mut ram, &prog).unwrap();
    let names: Vec<String> = vat::entries(&ram)
        .unwrap()
        .iter()
        .map(|e| e.display_name())
        .collect();
    assert_eq!(names, ["Y0", "L1", "POLY", "A", "[A]", "MANCALA"]);
    for v in [&a, &m, &prog] {
        assert_eq!(
            vat::read(&ram, v.var_type(), &v.name).unwrap().as_ref(),
            Some(v)
        );
    }
    let after = Pointers::read(&ram).unwrap();
    let data_len = 9 + 2 + 9 * 6 + prog.data.to_bytes().len();
    assert_eq!(after.temp_mem - before.temp_mem, data_len as u16);
    assert_eq!(before.p_temp - after.p_temp, 6 + 6 + 4 + 7);

    // Grow L1 in place: everything after it moves, addresses follow.
    let l1 = Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List((1..=20).map(TiFloat::from).collect()),
    };
    vat::store(&mut ram, &l1).unwrap();
    assert_eq!(vat::read_list(&ram, 1).unwrap().unwrap().len(), 20);
    for v in [&a, &m, &prog] {
        assert_eq!(
            vat::read(&ram, v.var_type(), &v.name).unwrap().as_ref(),
            Some(v)
        );
    }
    let names: Vec<String> = vat::entries(&ram)
        .unwrap()
        .iter()
        .map(|e| e.display_name())
        .collect();
    assert_eq!(names[1], "L1", "replacing keeps the VAT position");
    // Shrink it.
    let l1b = Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(vec![f("7")]),
    };
    vat::store(&mut ram, &l1b).unwrap();
    assert_eq!(vat::read_list(&ram, 1).unwrap().unwrap(), [f("7")]);
    assert_eq!(
        vat::read(&ram, VarType::Matrix, &m.name).unwrap().as_ref(),
        Some(&m)
    );

    // Delete L1 and POLY; the rest survives with fixed addresses.
    assert!(vat::delete(&mut ram, VarType::List, &VarName::list(1).unwrap()).unwrap());
    assert!(vat::delete(
        &mut ram,
        VarType::Program,
        &VarName::program("POLY").unwrap()
    )
    .unwrap());
    assert!(!vat::delete(
        &mut ram,
        VarType::Program,
        &VarName::program("POLY").unwrap()
    )
    .unwrap());
    let names: Vec<String> = vat::entries(&ram)
        .unwrap()
        .iter()
        .map(|e| e.display_name())
        .collect();
    assert_eq!(names, ["Y0", "A", "[A]", "MANCALA"]);
    for v in [&a, &m, &prog] {
        assert_eq!(
            vat::read(&ram, v.var_type(), &v.name).unwrap().as_ref(),
            Some(v)
        );
    }
    assert_eq!(vat::read_list(&ram, 1).unwrap(), None);
    // Re-create L1: it goes to the end.
    vat::store(&mut ram, &l1).unwrap();
    let es = vat::entries(&ram).unwrap();
    assert_eq!(es.last().unwrap().display_name(), "L1");
    assert_eq!(vat::read_list(&ram, 1).unwrap().unwrap().len(), 20);
    // Deleting everything returns to the empty pointers of a fresh image.
    for e in vat::entries(&ram).unwrap() {
        assert!(vat::delete(&mut ram, e.var_type(), &e.name).unwrap());
    }
    let p = Pointers::read(&ram).unwrap();
    assert_eq!((p.temp_mem, p.p_temp), (0x8D24, 0xFE6E));
}

#[test]
fn empty_image_and_errors() {
    let mut ram = vec![0u8; 0x8000];
    assert!(
        vat::entries(&ram).is_err(),
        "zero pointers are rejected, not walked"
    );
    vat::init_empty(&mut ram).unwrap();
    assert!(vat::entries(&ram).unwrap().is_empty());
    assert_eq!(vat::read_list(&ram, 1).unwrap(), None);
    assert!(vat::entries(&ram[..100]).is_err());
    // Out of memory is an error, not a panic.
    let big = Variable {
        name: VarName::list(2).unwrap(),
        data: VarData::List(vec![TiFloat::ONE; 3300]),
    };
    let e = vat::store(&mut ram, &big).unwrap_err();
    assert!(e.to_string().contains("no room"), "{e}");
    assert!(vat::entries(&ram).unwrap().is_empty());
    // Window settings are not RAM variables.
    let w = common::examples()
        .into_iter()
        .find(|(e, _)| *e == "82w")
        .unwrap()
        .1;
    assert!(vat::store(&mut ram, &w).is_err());
    // Selected bit.
    let y1 = Variable {
        name: VarName::parse(VarType::Equation, "Y1").unwrap(),
        data: VarData::Equation(tok("X")),
    };
    vat::store(&mut ram, &y1).unwrap();
    assert!(vat::set_selected(&mut ram, &y1.name, true).unwrap());
    let e = vat::find(&ram, VarType::Equation, &y1.name)
        .unwrap()
        .unwrap();
    assert_eq!(e.type_byte, 0x23);
    vat::store(
        &mut ram,
        &Variable {
            data: VarData::Equation(tok("X+1")),
            ..y1.clone()
        },
    )
    .unwrap();
    assert_eq!(
        vat::find(&ram, VarType::Equation, &y1.name)
            .unwrap()
            .unwrap()
            .type_byte,
        0x23
    );
}

#[test]
fn fills_memory_exactly() {
    let mut ram = vec![0u8; 0x8000];
    vat::init_empty(&mut ram).unwrap();
    let mut n = 0;
    loop {
        let v = Variable::program(&format!("P{n}"), vec![0x41; 500]).unwrap();
        match vat::store(&mut ram, &v) {
            Ok(_) => n += 1,
            Err(_) => break,
        }
    }
    assert!(n > 50);
    let es = vat::entries(&ram).unwrap();
    assert_eq!(es.len(), n);
    for (i, e) in es.iter().enumerate() {
        assert_eq!(e.display_name(), format!("P{i}"));
        assert_eq!(
            vat::read_value(&ram, e).unwrap().data,
            VarData::Program(vec![0x41; 500])
        );
    }
}

/// `space_needed` is what a new variable takes from the free memory: its data and its VAT
/// entry (spec 7.3: 6 bytes, a program's 4 + its name's length).
#[test]
fn space_needed_is_what_a_store_takes() {
    let mut ram = vec![0u8; 0x8000];
    vat::init_empty(&mut ram).unwrap();
    let list = Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(vec![f("1"), f("2"), f("3")]),
    };
    let prog = Variable::program("AB", vec![0xDE, 0x31]).unwrap();
    for (v, want) in [(&list, 2 + 27 + 6), (&prog, 2 + 2 + 4 + 2)] {
        let before = Pointers::read(&ram).unwrap().free();
        let need = vat::space_needed(v.var_type(), &v.name, v.data.to_bytes().len());
        assert_eq!(need, want, "{}", v.display_name());
        vat::store(&mut ram, v).unwrap();
        assert_eq!(before - Pointers::read(&ram).unwrap().free(), need);
    }
}

#[test]
fn backup_from_and_to_ram() {
    let mut ram = hand_image();
    let b = vat::backup_from_ram(&ram).unwrap();
    assert_eq!(b.section1.len(), 0x7FC);
    assert_eq!(b.section2.len(), 2 + 29 + 4);
    assert_eq!(b.section3.len(), 6 + 6 + 8);
    // Through a file and back into a fresh RAM image.
    let file = tifiles::TiFile::backup("ram", b.clone());
    let back = tifiles::TiFile::from_bytes(&file.to_bytes().unwrap()).unwrap();
    let tifiles::Content::Backup(b2) = back.content else {
        panic!("not a backup")
    };
    let mut fresh = vec![0u8; 0x8000];
    vat::restore_backup(&mut fresh, &b2).unwrap();
    assert_eq!(vat::entries(&fresh).unwrap(), vat::entries(&ram).unwrap());
    assert_eq!(
        vat::read_list(&fresh, 1).unwrap().unwrap(),
        [f("4"), f("4"), f("0")]
    );
    // A broken backup is an error, and leaves the memory as it was.
    let before = ram.clone();
    let mut bad = b2.clone();
    bad.section3 = vec![0; 0x8000];
    assert!(vat::restore_backup(&mut ram, &bad).is_err());
    assert_eq!(ram, before);
    // Sections that place well but point a variable outside user memory: refused whole.
    let mut bad = b2.clone();
    let n = bad.section3.len();
    // The last VAT entry's data address (the entry's bytes sit backwards: type, then the
    // address low, high) moved to the top of RAM.
    bad.section3[n - 2] = 0xFF;
    bad.section3[n - 3] = 0xF0;
    assert!(vat::restore_backup(&mut ram, &bad).is_err());
    assert_eq!(ram, before);
}

#[test]
fn headers() {
    use tifiles::var::Header;
    let v = Variable::program("A", vec![0xDE, 0x31]).unwrap();
    let h = Header::parse(&v.header()).unwrap();
    assert_eq!(
        h,
        Header::Var {
            size: 4,
            ty: VarType::Program,
            name: v.name
        }
    );
    assert_eq!(h.to_bytes(), v.header());
    let b = Header::parse(&[0xFC, 0x07, 0x0F, 0xFA, 0x08, 0xBC, 0x01, 0x24, 0x8D]).unwrap();
    assert_eq!(
        b,
        Header::Backup {
            len1: 0x7FC,
            len2: 0x8FA,
            len3: 0x1BC,
            address: 0x8D24
        }
    );
    assert_eq!(
        b.to_bytes(),
        [0xFC, 0x07, 0x0F, 0xFA, 0x08, 0xBC, 0x01, 0x24, 0x8D]
    );
    assert!(Header::parse(&[0; 0x1F]).is_err());
    assert!(Header::parse(&[]).is_err());
}
