; Idle: timer at the slowest rate, a short handler counting ticks at 8000h, HALT forever.
        org 0
        di
        ld sp, 0
        jp main
        ds 38h - $
isr:
        push af
        push hl
        ld hl, (8000h)
        inc hl
        ld (8000h), hl
        ld a, 08h
        out (3), a
        ld a, 0Ah
        out (3), a
        pop hl
        pop af
        ei
        ret
main:
        im 1
        ld hl, 0
        ld (8000h), hl
        ld a, 16h
        out (4), a
        ld a, 0Ah
        out (3), a
        ei
loop:   halt
        jr loop
