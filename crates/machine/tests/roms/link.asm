; Two calculators exchanging bytes with the TI bit protocol (spec 7.2) on the classic port
; 00h values C0h (release), D4h (pull tip = 0 bit), E8h (pull ring = 1 bit).
; Held ENTER at start = receiver, otherwise sender. The sender sends COUNT bytes
; (i * 7 + 3) and exits; the receiver stores them at 9000h, reports their 16-bit sum on the
; test output (low, high) and exits.
EXIT:   equ 0F0h
OUT:    equ 0F1h
COUNT:  equ 300
BUF:    equ 9000h

        org 0
        di
        ld sp, 0
        ld a, 0C0h
        out (0), a
        ld a, 0FDh              ; group 1: ENTER?
        out (1), a
        nop
        in a, (1)
        bit 0, a
        jp z, receiver

sender:
        ld hl, COUNT
        ld d, 3                 ; value
snext:  ld c, d
        call sendbyte
        ld a, d
        add a, 7
        ld d, a
        dec hl
        ld a, h
        or l
        jr nz, snext
        xor a
        out (EXIT), a
        di
        halt

receiver:
        ld hl, BUF
        ld de, COUNT
rnext:  call recvbyte
        ld (hl), c
        inc hl
        dec de
        ld a, d
        or e
        jr nz, rnext
        ; sum the bytes
        ld hl, BUF
        ld de, COUNT
        ld bc, 0
sum:    ld a, (hl)
        add a, c
        ld c, a
        ld a, 0
        adc a, b
        ld b, a
        inc hl
        dec de
        ld a, d
        or e
        jr nz, sum
        ld a, c
        out (OUT), a
        ld a, b
        out (OUT), a
        xor a
        out (EXIT), a
        di
        halt

; send C, LSB first
sendbyte:
        ld b, 8
sbit:   in a, (0)               ; wait for both lines high
        and 3
        cp 3
        jr nz, sbit
        rr c
        jr c, sone
        ld a, 0D4h              ; 0: pull tip
        out (0), a
sw0:    in a, (0)               ; wait for the ring (acknowledge)
        and 2
        jr nz, sw0
        jr srel
sone:   ld a, 0E8h              ; 1: pull ring
        out (0), a
sw1:    in a, (0)               ; wait for the tip (acknowledge)
        and 1
        jr nz, sw1
srel:   ld a, 0C0h
        out (0), a
sw2:    in a, (0)               ; wait until the receiver releases too
        and 3
        cp 3
        jr nz, sw2
        djnz sbit
        ret

; receive into C, LSB first
recvbyte:
        ld b, 8
rbit:   in a, (0)
        and 3
        cp 3
        jr z, rbit
        cp 2
        jr nz, rone
        ld a, 0E8h              ; tip low: a 0; acknowledge on the ring
        out (0), a
rw0:    in a, (0)               ; wait for the tip to go high
        and 1
        jr z, rw0
        ld a, 0C0h
        out (0), a
        or a                    ; carry = 0
        jr rstore
rone:   ld a, 0D4h              ; ring low: a 1; acknowledge on the tip
        out (0), a
rw1:    in a, (0)
        and 2
        jr z, rw1
        ld a, 0C0h
        out (0), a
        scf
rstore: rr c
        djnz rbit
        ret
