; Keypad scan: select each group 0..6 alone, then all groups, and report port 01h.
EXIT:   equ 0F0h
OUT:    equ 0F1h

        org 0
        di
        ld sp, 0
        ld b, 7
        ld c, 0FEh
group:
        ld a, c
        out (1), a
        nop                     ; settling time (the ROM waits too)
        nop
        in a, (1)
        out (OUT), a
        rlc c
        djnz group
        xor a
        out (1), a
        nop
        in a, (1)
        out (OUT), a
        ld a, 0FFh
        out (1), a
        nop
        in a, (1)
        out (OUT), a
        xor a
        out (EXIT), a
        di
        halt
