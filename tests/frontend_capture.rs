//! Recorders: the link log text (bytes and packets), the WAV of the link lines, the GIF.

#[path = "frontend_rom.rs"]
mod rom;

use ti82::capture::{link_log_text, GifRecorder, WavRecorder, WAV_RATE};

/// Line levels for `bytes` sent with the four-phase bit protocol.
fn wire(bytes: &[u8]) -> Vec<(u64, u8)> {
    let mut ev = Vec::new();
    let mut t = 1000;
    for &v in bytes {
        for i in 0..8 {
            let b = (v >> i) & 1;
            ev.push((t, if b == 0 { 2 } else { 1 }));
            ev.push((t + 100, 0));
            ev.push((t + 200, if b == 0 { 1 } else { 2 }));
            ev.push((t + 300, 3));
            t += 400;
        }
        t += 1000;
    }
    ev
}

#[test]
fn link_log_has_bytes_and_packets() {
    // A TI-82 ACK packet: 82 56 00 00.
    let text = link_log_text(&wire(&[0x82, 0x56, 0x00, 0x00]));
    let bytes: Vec<&str> = text.lines().filter(|l| l.starts_with("B ")).collect();
    assert_eq!(bytes.len(), 4);
    assert!(bytes[0].starts_with("B 1000 "), "{}", bytes[0]);
    assert!(bytes[0].ends_with(" 82"));
    let packets: Vec<&str> = text.lines().filter(|l| l.starts_with("P ")).collect();
    assert_eq!(packets.len(), 1, "{text}");
    assert!(packets[0].contains("ACK"), "{text}");
    assert!(text.ends_with("4 bytes, 1 packets\n"));
}

#[test]
fn wav_follows_the_lines() {
    let dir = rom::temp_dir("wav");
    let p = dir.join("l.wav");
    let mut w = WavRecorder::create(&p, 0, 3).unwrap();
    // Tip low from 0.5 s to 1 s; run to 2 s.
    w.feed(&[(3_000_000, 2), (6_000_000, 3)], 12_000_000)
        .unwrap();
    w.finish().unwrap();
    let mut r = hound::WavReader::open(&p).unwrap();
    assert_eq!(r.spec().sample_rate, WAV_RATE);
    let s: Vec<i16> = r.samples::<i16>().map(|x| x.unwrap()).collect();
    assert_eq!(s.len(), 2 * 2 * WAV_RATE as usize);
    let at = |sec: f64, ch: usize| s[(sec * WAV_RATE as f64) as usize * 2 + ch];
    assert!(at(0.25, 0) > 0 && at(0.25, 1) > 0);
    assert!(at(0.75, 0) < 0 && at(0.75, 1) > 0);
    assert!(at(1.5, 0) > 0);
}

#[test]
fn gif_merges_still_frames() {
    let dir = rom::temp_dir("gif");
    let p = dir.join("a.gif");
    let mut c = rom::calc();
    let mut g = GifRecorder::create(&p, 1).unwrap();
    for _ in 0..30 {
        c.run_for(100_000);
        g.push(&c.lcd(), c.now()).unwrap();
    }
    let frames_before_finish = g.frames;
    g.finish(c.now()).unwrap();
    // The program draws once, then the screen is still: few frames, not 30.
    assert!(frames_before_finish <= 3, "{frames_before_finish}");
    let bytes = std::fs::read(&p).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
}
