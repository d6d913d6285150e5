; Timer rate: for each port 04h setting (bits 2:1 = 0..3, bit 4 set as the classic ROM does),
; count timer interrupts over a delay loop of 6 000 000 T-states plus the handler's time, and
; report the 16-bit count (low, high) on the test output port.
EXIT:   equ 0F0h
OUT:    equ 0F1h
COUNT:  equ 8000h

        org 0
        di
        ld sp, 0
        jp main
        ds 38h - $
isr:                            ; 0038h, IM 1
        push af
        push hl
        ld hl, (COUNT)
        inc hl
        ld (COUNT), hl
        ld a, 08h               ; acknowledge: timer bit 0 ...
        out (3), a
        ld a, 0Ah               ; ... then 1 again
        out (3), a
        pop hl
        pop af
        ei
        ret

main:
        im 1
        ld b, 0                 ; setting n
setting:
        ld a, b
        add a, a
        or 10h
        out (4), a
        ld hl, 0
        ld (COUNT), hl
        ld a, 08h
        out (3), a              ; clear anything pending
        ld a, 0Ah
        out (3), a
        ei
        ; 10 x 23077 x 26 T-states = 6 000 020
        ld e, 10
outer:
        ld hl, 23077
inner:
        dec hl                  ; 6
        ld a, h                 ; 4
        or l                    ; 4
        jr nz, inner            ; 12
        dec e
        jr nz, outer
        di
        ld a, 08h
        out (3), a
        ld a, (COUNT)
        out (OUT), a
        ld a, (COUNT + 1)
        out (OUT), a
        inc b
        ld a, b
        cp 4
        jr nz, setting
        xor a
        out (EXIT), a
        di
        halt
