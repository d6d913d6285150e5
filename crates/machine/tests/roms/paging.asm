; ROM paging and RAM test. The Rust test puts marker byte A0h+n at offset 3FF0h of every
; ROM page n (so at 3FF0h for page 0 and at 7FF0h for the page mapped at 4000h).
; Exit code 0 = pass, otherwise the number of the failed check.
EXIT:   equ 0F0h
OUT:    equ 0F1h

        org 0
        di
        ld sp, 0
        jp main

main:
        ; 1: page 0 marker through the fixed bank
        ld a, (3FF0h)
        cp 0A0h
        ld e, 1
        jp nz, fail
        ; 2: every page at 4000h, port 02h written 88h+n (TI-83-style value, also fine
        ; for the simple model), read back through port 02h
        ld b, 0
pages:
        ld a, b
        or 88h
        out (2), a
        in a, (2)
        out (OUT), a
        ld a, (7FF0h)
        out (OUT), a
        ld c, a
        ld a, b
        add a, 0A0h
        cp c
        ld e, 2
        jp nz, fail
        inc b
        ld a, b
        cp 8
        jr nz, pages
        ; 3: writes to ROM are ignored
        ld a, 55h
        ld (3FF0h), a
        ld (7FF0h), a
        ld a, (3FF0h)
        cp 0A0h
        ld e, 3
        jp nz, fail
        ld a, (7FF0h)
        cp 0A7h
        jp nz, fail
        ; 4: fill all of RAM with (H xor L) + 1 and check it back
        ld hl, 8000h
fill:
        ld a, h
        xor l
        inc a
        ld (hl), a
        inc hl
        ld a, h
        or l
        jr nz, fill
        ld hl, 8000h
check:
        ld a, h
        xor l
        inc a
        cp (hl)
        ld e, 4
        jp nz, fail
        inc hl
        ld a, h
        or l
        jr nz, check
        ; 5: page 3 back at 4000h, a call into code that runs from RAM
        ld a, 8Bh
        out (2), a
        ld hl, ramcode
        ld de, 0C000h
        ld bc, ramcode_end - ramcode
        ldir
        call 0C000h
        cp 0A3h
        ld e, 5
        jp nz, fail
        xor a
        out (EXIT), a
        di
        halt
ramcode:
        ld a, (7FF0h)
        ret
ramcode_end:

fail:
        ld a, e
        out (EXIT), a
        di
        halt
