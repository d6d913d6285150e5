; T6A04 in 6-bit mode: 16 visible columns of 6 pixels, bits 7:6 ignored on write, column 19
; and the wrap to column 0, an out-of-range column. Golden screen: tests/golden/lcd_6bit.txt.
EXIT:   equ 0F0h

        org 0
        di
        ld sp, 0
        ld a, 00h               ; 6-bit words
        call cmd
        ld a, 05h
        call cmd
        ld a, 03h
        call cmd
        ld c, 0
col:
        ld a, c
        or 20h
        call cmd
        ld a, 80h
        call cmd
        ld b, 0
row:
        ld a, b
        xor c
        and 3Fh
        or 0C0h                 ; bits 7:6 must be ignored
        call data
        inc b
        ld a, b
        cp 64
        jr nz, row
        inc c
        ld a, c
        cp 16
        jr nz, col
        ; column 19 (pixels 114-119, off the glass), then Y increment wraps to column 0
        ld a, 07h
        call cmd
        ld a, 20h + 19
        call cmd
        ld a, 80h + 10
        call cmd
        ld a, 3Fh
        call data
        ld a, 21h
        call data
        ; column address 25 folds to column 0 (row 20)
        ld a, 20h + 25
        call cmd
        ld a, 80h + 20
        call cmd
        ld a, 3Fh
        call data
        xor a
        out (EXIT), a
        di
        halt

wait:   in a, (10h)
        rla
        jr c, wait
        ret
cmd:    push af
        call wait
        pop af
        out (10h), a
        ret
data:   push af
        call wait
        pop af
        out (11h), a
        ret
