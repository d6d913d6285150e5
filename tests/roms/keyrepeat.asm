; Key repeat counter for the front end's key timing test (tests/frontend_keys.rs).
; Samples RIGHT (keypad group 0, mask FEh, data bit 2; ti82-hardware.md 6.2) about once per
; emulated millisecond and counts key events as an OS with key repeat would: one on the
; press, then one every PERIOD samples once the key has been down DELAY samples (the built-in
; runtime's figures, tibasic::keys: 450 ms, then every 80 ms).
;   8000h: samples with RIGHT down (16-bit, about ms held)
;   8002h: key events (16-bit: the press and its repeats)
DOWN:   equ 8000h
EVENTS: equ 8002h
DELAY:  equ 450
PERIOD: equ 80

        org 0
        di
        ld sp, 0
        ld hl, 0
        ld (DOWN), hl
        ld (EVENTS), hl
        ld de, 0                ; samples to the next event while held; 0 = key up
sample:
        ld a, 0FEh
        out (1), a
        nop                     ; settling time
        nop
        in a, (1)
        bit 2, a
        jr nz, up               ; active low: 1 = not pressed
        ld hl, (DOWN)
        inc hl
        ld (DOWN), hl
        ld a, d
        or e
        jr z, press             ; it was up: a press
        dec de
        ld a, d
        or e
        jr nz, wait
        ld de, PERIOD           ; held long enough: a repeat
        jr event
press:  ld de, DELAY
event:  ld hl, (EVENTS)
        inc hl
        ld (EVENTS), hl
        jr wait
up:     ld de, 0
wait:   ld bc, 225              ; 225 x 26 T-states, with the sampling about 6000 (1 ms)
delay:  dec bc
        ld a, b
        or c
        jr nz, delay
        jr sample
