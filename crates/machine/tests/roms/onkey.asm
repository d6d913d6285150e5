; ON key: interrupt on press, level in port 03h bit 3, power off / on as the ROM does it.
; The handler reports port 03h on the test output; the Rust test presses and releases ON.
EXIT:   equ 0F0h
OUT:    equ 0F1h
FLAG:   equ 8000h

        org 0
        di
        ld sp, 0
        jp main
        ds 38h - $
isr:
        push af
        in a, (3)
        out (OUT), a            ; expect 01h: ON pending, ON held (bit 3 = 0)
        ld a, 08h               ; acknowledge (ON interrupt disabled)
        out (3), a
        ld a, 1
        ld (FLAG), a
        pop af
        ei
        ret

main:
        im 1
        ld a, 03h               ; display on
        out (10h), a
        xor a
        ld (FLAG), a
        ld a, 09h               ; ON interrupt only, power bit set
        out (3), a
        ei
w1:     halt
        ld a, (FLAG)
        or a
        jr z, w1
w2:     in a, (3)               ; wait for ON release
        bit 3, a
        jr z, w2
        out (OUT), a            ; expect 08h
        ; power off: LCD off, only ON enabled, power bit clear, EI, HALT
        ld a, 02h
        out (10h), a
        xor a
        ld (FLAG), a
        ld a, 01h
        out (3), a
        ei
        halt
        ; ON woke us: power bit back, LCD on
        ld a, 09h
        out (3), a
        in a, (3)
        out (OUT), a            ; expect 00h: ON still held
        ld a, 03h
        out (10h), a
        xor a
        out (EXIT), a
        di
        halt
