//! CALC VS CALC on two linked calculators, each on its own thread with its own driver that
//! sees only its own calculator; both verify every move.

use ti82_harness::cvc::Status;
use ti82_harness::{builtin_programs, CvcOptions, CvcReport, CvcSide, Table};
use ti82_machine::{cable, Calc};

/// Wire delay of the test cable in T-states (the one `ti82 conformance --cvc` uses).
const LATENCY: u64 = ti82_harness::CVC_LATENCY;

fn calc() -> Calc {
    let programs = builtin_programs().expect("programs tokenize");
    Table::new(&programs).expect("MANCALA starts").calc
}

/// Plays one game; returns both reports (A's, B's).
fn game(a_opts: CvcOptions, b_opts: CvcOptions) -> (CvcReport, CvcReport) {
    let (a, b) = cable::connect(calc(), calc(), LATENCY);
    let side = |mut c: cable::Linked, opts: CvcOptions| {
        std::thread::spawn(move || {
            let mut side = CvcSide::new(opts).expect("options");
            let mut steps = 0u64;
            let result = loop {
                match side.step(&mut c) {
                    Ok(Status::Running) => steps += 1,
                    Ok(Status::Done(r)) => break Ok(r),
                    Err(e) => break Err(format!("{e}\n{}", c.lcd().to_text())),
                }
            };
            c.detach_link();
            (result, steps)
        })
    };
    let ha = side(a, a_opts);
    let hb = side(b, b_opts);
    let (ra, sa) = ha.join().expect("thread A");
    let (rb, sb) = hb.join().expect("thread B");
    let (ra, rb) = match (ra, rb) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            let show = |r: Result<CvcReport, String>| match r {
                Ok(r) => format!("{r:?}"),
                Err(e) => e,
            };
            panic!("calculator A: {}\ncalculator B: {}", show(a), show(b))
        }
    };
    assert!(sa > 10 && sb > 10, "stepped {sa} and {sb} times");
    (ra, rb)
}

fn check_pair(first: &CvcReport, second: &CvcReport, first_rocks: u8) {
    assert_eq!(first.me, 1);
    assert_eq!(second.me, 2);
    // The first player's rocks per hole win.
    assert_eq!(first.rocks, first_rocks);
    assert_eq!(second.rocks, first_rocks);
    // Both sides verified every move of the same game and ended on the same board.
    // (The houses may differ only where two moves give the same board, as the sweep at the
    // end can: the side that did not play them finds one of them.)
    let movers = |r: &CvcReport| r.moves.iter().map(|m| m.0).collect::<Vec<u8>>();
    assert_eq!(movers(first), movers(second));
    assert_eq!(first.board, second.board);
    assert!(first.moves.len() > 10, "{:?}", first.moves);
    assert_eq!(first.moves_verified, first.moves.len() as u64);
    assert_eq!(second.moves_verified, first.moves.len() as u64);
    assert_eq!(first.own_moves, second.opponent_moves);
    assert_eq!(first.opponent_moves, second.own_moves);
    assert!(first.own_moves > 0 && second.own_moves > 0);
    // The board is a finished game: every rock in a store.
    let total: u32 = first.board.iter().map(|&x| u32::from(x)).sum();
    assert_eq!(total, 12 * u32::from(first_rocks));
    assert_eq!(
        u32::from(first.board[6]) + u32::from(first.board[13]),
        total
    );
    let expect = match first.result {
        "win" => "lose",
        "lose" => "win",
        _ => "tie",
    };
    assert_eq!(second.result, expect);
}

#[test]
fn a_goes_first_with_its_rocks() {
    let a = CvcOptions {
        first: true,
        rocks: 3,
        seed: 11,
    };
    let b = CvcOptions {
        first: false,
        rocks: 6,
        seed: 12,
    };
    let (ra, rb) = game(a, b);
    check_pair(&ra, &rb, 3);
}

#[test]
fn b_goes_first_with_its_rocks() {
    let a = CvcOptions {
        first: false,
        rocks: 3,
        seed: 21,
    };
    let b = CvcOptions {
        first: true,
        rocks: 5,
        seed: 22,
    };
    let (ra, rb) = game(a, b);
    check_pair(&rb, &ra, 5);
}

#[test]
fn the_committed_program_files_match_their_sources() {
    // `cargo xtask build-programs` writes programs/*.82p from programs/*.txt; a stale file
    // would give users of the .82p another game than the one verified here.
    let programs = builtin_programs().expect("programs tokenize");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../programs");
    for built in &programs {
        let name = String::from_utf8_lossy(built.name.bytes()).to_string();
        let path = dir.join(format!("{name}.82p"));
        let file = tifiles::file::TiFile::read(&path, Default::default())
            .unwrap_or_else(|e| panic!("{e} (run `cargo xtask build-programs`)"));
        assert_eq!(
            file.vars(),
            std::slice::from_ref(built),
            "{} is stale: run `cargo xtask build-programs`",
            path.display()
        );
    }
}
