; Port read-back: every value read goes to the test output port; the Rust test compares
; the list. Run with ENTER held (group 1, bit 0).
EXIT:   equ 0F0h
OUT:    equ 0F1h

        org 0
        di
        ld sp, 0
        ; port 00h: the ROM's three values and two odd ones
        ld a, 0C0h
        out (0), a
        in a, (0)
        out (OUT), a
        ld a, 0D4h
        out (0), a
        in a, (0)
        out (OUT), a
        ld a, 0E8h
        out (0), a
        in a, (0)
        out (OUT), a
        ld a, 03h
        out (0), a
        in a, (0)
        out (OUT), a
        ld a, 0C0h
        out (0), a
        ; port 01h: nothing selected, group 1, group 0, all groups
        ld a, 0FFh
        out (1), a
        in a, (1)
        out (OUT), a
        ld a, 0FDh
        out (1), a
        in a, (1)
        out (OUT), a
        ld a, 0FEh
        out (1), a
        in a, (1)
        out (OUT), a
        ld a, 00h
        out (1), a
        in a, (1)
        out (OUT), a
        ; port 02h: reset value, then a written value
        in a, (2)
        out (OUT), a
        ld a, 8Bh
        out (2), a
        in a, (2)
        out (OUT), a
        ld a, 88h
        out (2), a
        ; port 03h: reset state, enabled, acknowledged
        in a, (3)
        out (OUT), a
        ld a, 0Bh
        out (3), a
        in a, (3)
        out (OUT), a
        ; port 04h
        ld a, 16h
        out (4), a
        in a, (4)
        out (OUT), a
        ; port 10h status at reset (display off, 8-bit, Y increment), then after 05h, 03h
        in a, (10h)
        out (OUT), a
        ld a, 05h
        out (10h), a
        in a, (10h)         ; busy: bit 7 set
        out (OUT), a
        call wait
        ld a, 03h
        out (10h), a
        call wait
        in a, (10h)
        out (OUT), a
        ; port 11h: dummy read returns the latch (0)
        in a, (11h)
        out (OUT), a
        ; unmapped ports and the mirrors of the TI-83 ASIC decoding
        in a, (05h)
        out (OUT), a
        in a, (14h)
        out (OUT), a
        in a, (06h)
        out (OUT), a
        in a, (12h)
        out (OUT), a
        ; 16-bit port address: the high byte is ignored
        ld bc, 5A02h
        in a, (c)
        out (OUT), a
        xor a
        out (EXIT), a
        di
        halt

wait:   ; 80 T-states or so: longer than the LCD busy time
        push bc
        ld b, 5
w1:     djnz w1
        pop bc
        ret
