; T6A04 in 8-bit mode: X and Y auto-increment and decrement, wrap-around, out-of-range
; columns. Every access waits for the busy flag (status bit 7). The golden screen is
; tests/golden/lcd_modes.txt.
EXIT:   equ 0F0h

        org 0
        di
        ld sp, 0
        ld a, 01h               ; 8-bit words
        call cmd
        ld a, 05h               ; X (row) auto-increment
        call cmd
        ld a, 03h               ; display on
        call cmd
        ld a, 0F8h              ; contrast 56
        call cmd
        ; 12 visible columns, 64 rows each: diagonal stripes 80h >> ((row + col) & 7)
        ld c, 0                 ; column
col:
        ld a, c
        or 20h
        call cmd
        ld a, 80h
        call cmd
        ld b, 0                 ; row
row:
        ld a, b
        add a, c
        and 7
        ld e, a
        ld a, 80h
        inc e
sh:     dec e
        jr z, shd
        srl a
        jr sh
shd:    call data
        inc b
        ld a, b
        cp 64
        jr nz, row
        inc c
        ld a, c
        cp 12
        jr nz, col
        ; Y auto-increment across row 40: 15 writes of AAh, the 16th wraps to column 0
        ld a, 07h
        call cmd
        ld a, 80h + 40
        call cmd
        ld a, 20h
        call cmd
        ld b, 15
yi:     ld a, 0AAh
        call data
        djnz yi
        ld a, 81h
        call data
        ; Y auto-decrement across row 44 from column 11: 12 x F0h, then 0Fh wraps to column 14
        ld a, 06h
        call cmd
        ld a, 80h + 44
        call cmd
        ld a, 20h + 11
        call cmd
        ld b, 12
yd:     ld a, 0F0h
        call data
        djnz yd
        ld a, 0Fh
        call data
        ; X auto-decrement in column 5 from row 63: 8 x FFh
        ld a, 04h
        call cmd
        ld a, 20h + 5
        call cmd
        ld a, 80h + 63
        call cmd
        ld b, 8
xd:     ld a, 0FFh
        call data
        djnz xd
        ; X wraps 0 -> 63 while decrementing: column 6, rows 1, 0, 63
        ld a, 20h + 6
        call cmd
        ld a, 80h + 1
        call cmd
        ld b, 3
xw:     ld a, 3Ch
        call data
        djnz xw
        ; Column address 31 (out of range in 8-bit mode) folds to column 0: row 50
        ld a, 05h
        call cmd
        ld a, 20h + 31
        call cmd
        ld a, 80h + 50
        call cmd
        ld a, 0E7h
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
