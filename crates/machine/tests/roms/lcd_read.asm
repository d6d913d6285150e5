; T6A04 read-back: the dummy read, the latch, 6-bit reads, the status byte after every
; mode command, display off. Every value read goes to the test output port.
EXIT:   equ 0F0h
OUT:    equ 0F1h

        org 0
        di
        ld sp, 0
        ld a, 01h
        call cmd
        ld a, 05h
        call cmd
        ld a, 03h
        call cmd
        ; write 11h 22h 33h 44h down column 0 from row 0
        ld a, 20h
        call cmd
        ld a, 80h
        call cmd
        ld a, 11h
        call data
        ld a, 22h
        call data
        ld a, 33h
        call data
        ld a, 44h
        call data
        ; back to row 0: dummy read then four reads (5 values reported)
        ld a, 80h
        call cmd
        ld b, 5
rd:     call read
        out (OUT), a
        djnz rd
        ; a write does not reload the latch: the next read returns the stale latch (row 4)
        ld a, 55h
        call data
        call read
        out (OUT), a
        ; 6-bit mode: write 2Ah at column 1 of row 8, read it back (bits 7:6 read 0)
        ld a, 00h
        call cmd
        ld a, 21h
        call cmd
        ld a, 88h
        call cmd
        ld a, 0EAh
        call data
        ld a, 88h
        call cmd
        call read
        call read
        out (OUT), a
        ; the same row in 8-bit mode: bytes 0 and 1
        ld a, 01h
        call cmd
        ld a, 07h               ; Y increment
        call cmd
        ld a, 20h
        call cmd
        ld a, 88h
        call cmd
        call read
        call read
        out (OUT), a
        call read
        out (OUT), a
        ; status after each of 00h .. 07h
        ld b, 0
st:     ld a, b
        call cmd
        call wait
        in a, (10h)
        out (OUT), a
        inc b
        ld a, b
        cp 8
        jr nz, st
        ; status read right after a command: busy
        ld a, 01h
        out (10h), a
        in a, (10h)
        out (OUT), a
        ; display off: RAM kept, glass blank
        ld a, 02h
        call cmd
        call wait
        in a, (10h)
        out (OUT), a
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
read:   call wait
        in a, (11h)
        ret
