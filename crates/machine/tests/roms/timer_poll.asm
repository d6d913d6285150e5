; The timer flag polled with interrupts disabled (spec §2.4, §4.6: a tick sets port 03h read
; bit 1 whatever IFF1 is). DI, timer enabled, port 03h polled until bit 1 reads 1 (at most
; 65 535 polls, then exit code 1). Reports (test output port): the value read when the flag
; showed, the value right after acknowledging it (08h then 0Ah), then the poll count (low,
; high). Exit code 0.
EXIT:   equ 0F0h
OUT:    equ 0F1h

        org 0
        di
        ld sp, 0
        ld a, 10h               ; classic OS-style port 04h, fastest rate
        out (4), a
        ld a, 08h               ; clear anything pending ...
        out (3), a
        ld a, 0Ah               ; ... then enable the timer (power bit set)
        out (3), a
        ld hl, 0
poll:
        inc hl
        ld a, h
        or l
        jr z, never
        in a, (3)
        bit 1, a
        jr z, poll
        out (OUT), a            ; the value that showed the flag
        ld a, 08h
        out (3), a              ; acknowledge
        ld a, 0Ah
        out (3), a
        in a, (3)
        out (OUT), a            ; flag cleared
        ld a, l
        out (OUT), a
        ld a, h
        out (OUT), a
        xor a
        out (EXIT), a
        halt
never:
        ld a, 1
        out (EXIT), a
        halt
