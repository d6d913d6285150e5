; Bank switches fast, then none: for the firmware's choice between view and paged reads
; (memory.rs). The Rust test puts marker byte A0h+n at offset 3FF0h of every ROM page n.
; Phase 1: 4000 switches, one every ~100 T-states, summing the marker of each page into
; 8000h (word); then 8002h = 1. Phase 2: counts in 8003h (word) forever, no switches.
        org 0
        di
        ld sp, 0
        ld hl, 0
        ld de, 4000
        ld b, 0
busy:
        ld a, b
        and 7
        or 88h
        out (2), a
        ld a, (7FF0h)
        add a, l
        ld l, a
        jr nc, nc1
        inc h
nc1:
        inc b
        dec de
        ld a, d
        or e
        jr nz, busy
        ld (8000h), hl
        ld a, 1
        ld (8002h), a
quiet:
        ld hl, (8003h)
        inc hl
        ld (8003h), hl
        jr quiet
