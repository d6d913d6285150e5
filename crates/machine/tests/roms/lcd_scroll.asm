; T6A04 Z address (vertical scroll), contrast, op-amp and test-mode commands (no visible
; effect). Draws a frame and a block, then scrolls by 16 rows.
; Golden screen: tests/golden/lcd_scroll.txt.
EXIT:   equ 0F0h

        org 0
        di
        ld sp, 0
        ld a, 01h
        call cmd
        ld a, 07h               ; Y increment: draw rows
        call cmd
        ld a, 03h
        call cmd
        ; rows 0 and 63 all dark
        ld a, 80h
        call cmd
        call fullrow
        ld a, 80h + 63
        call cmd
        call fullrow
        ; rows 1..62: left and right edges, and a block in rows 8..15
        ld b, 1
edges:
        ld a, b
        or 80h
        call cmd
        ld a, 20h
        call cmd
        ld a, 80h
        call data
        ld c, 10
mid:    ld a, b
        and 0F8h
        cp 8
        ld a, 0
        jr nz, mid1
        ld a, 0FFh
mid1:   call data
        dec c
        jr nz, mid
        ld a, 01h
        call data
        inc b
        ld a, b
        cp 63
        jr nz, edges
        ; every op-amp and test command: 08h .. 1Fh
        ld b, 08h
tcmd:   ld a, b
        call cmd
        inc b
        ld a, b
        cp 20h
        jr nz, tcmd
        ld a, 0C0h + 45         ; contrast 45
        call cmd
        ld a, 40h + 16          ; Z = 16
        call cmd
        xor a
        out (EXIT), a
        di
        halt

fullrow:
        ld a, 20h
        call cmd
        ld b, 12
fr:     ld a, 0FFh
        call data
        djnz fr
        ret

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
