; A TI-82 link protocol peer in Z80 code: the receiving side of LINK RECEIVE and the answering
; side of a silent REQ (ti82-software.md 1.7.1 and 1.7.6), packets of 1.1-1.6, bits of 2.2 on
; the classic port 00h values C0h (release), D4h (pull tip = 0 bit), E8h (pull ring = 1 bit).
;
; It never exits. It waits (forever) for the first bit of a packet, then:
;   VAR  -> ACK, CTS, wait ACK, wait DATA, ACK; the header and the data are kept in RAM;
;           then the next VAR (same again) or EOT -> ACK. A variable that does not fit (no free
;           table entry, not enough data space) is answered ACK, SKIP (02), wait ACK.
;   REQ  -> ACK, VAR (the stored header), wait ACK, wait CTS, ACK, DATA, wait ACK; a variable
;           it does not hold: ACK, EXIT (01), wait ACK. A SKIP/EXIT in place of the CTS is
;           ACKed and ends the request.
;   RTS  -> as VAR (so the built-in runtime's Send( reaches it; a real TI-82 ignores RTS).
;   EOT  -> ACK (a stray one); anything else is ignored.
; Its packets carry machine ID 82h. A packet with a bad checksum is answered ERR (5Ah) and
; expected again, at most 3 times. Inside a transfer every handshake step and every wait for
; the next packet times out after about 2.3 s (4 x 65536 polls of 52 T-states); on a timeout or
; a protocol error it releases both lines, counts the failure, waits until both lines have
; been high for about 70 ms and listens again.
;
; RAM it reports in (the tests read these addresses):
;   8800h NVARS     variables held          8801h ERRS     failed transfers
;   8802h LASTERR   1 timeout, 2 checksum retries used up, 3 unexpected packet, 4 too long
;   8803h NAKS      ERR packets sent        8804h SERVED   REQs answered with the variable
;   8805h MISSING   REQs for missing vars   8806h SKIPS    variables refused (no room)
;   8807h DONE      transfers ended by EOT  8808h STATE    1 idle, 2 receiving, 3 serving REQ
;   8900h TAB       NVARS entries of 16 bytes: the 11-byte header (size, type, name) as it
;                   came in the VAR packet, then the address of the data (2 bytes)
;   9000h DATA      the data sections, one after the other, as they came in DATA packets

MAXVARS: equ 8
TMO:    equ 4               ; timeout: TMO x 65536 polls

NVARS:  equ 8800h
ERRS:   equ 8801h
LASTERR: equ 8802h
NAKS:   equ 8803h
SERVED: equ 8804h
MISSING: equ 8805h
SKIPS:  equ 8806h
DONE:   equ 8807h
STATE:  equ 8808h
FOREVER: equ 8810h          ; nonzero: the next wait has no timeout
TMOHI:  equ 8811h
TRIES:  equ 8812h
WANT:   equ 8813h
SCMD:   equ 8814h
BADSUM: equ 8815h
DATAPTR: equ 8820h          ; next free byte of DATA
PLEN:   equ 8822h           ; data length of the last packet received
SUM:    equ 8824h
CHK:    equ 8826h
DEST:   equ 8828h
COUNT:  equ 882Ah
SPTR:   equ 882Ch
SLEN:   equ 882Eh
ENTRY:  equ 8830h
PHDR:   equ 8840h           ; the 4 bytes of the last packet's header
PDATA:  equ 8850h           ; data of the last packet other than DATA (at most 16 bytes)
TAB:    equ 8900h
DATA:   equ 9000h
DATAEND: equ 0F000h

ERR_TIMEOUT: equ 1
ERR_SUM: equ 2
ERR_UNEXP: equ 3
ERR_LONG: equ 4

        org 0
        di
        ld sp, 0
        ld a, 0C0h
        out (0), a
        ld hl, 8800h            ; clear the report area
        ld de, 8801h
        ld bc, 0FFh
        ld (hl), 0
        ldir
        ld hl, DATA
        ld (DATAPTR), hl
        ld a, TMO
        ld (TMOHI), a

; ------------------------------------------------------------------ waiting for a packet
idle:   ld a, 0C0h
        out (0), a
        ld a, 1
        ld (STATE), a
        ld (FOREVER), a
        call getpkt
        jr c, fail
        cp 06h
        jr z, dovar
        cp 0C9h                 ; RTS (a silent send, the built-in runtime's Send(): taken as VAR
        jr z, dovar             ; as a CBL or a TI-83 would; a real TI-82 ignores it, 1.7.7)
        cp 0A2h
        jp z, doreq
        cp 92h
        jr nz, idle             ; ignore anything else
        ld a, 56h               ; ACK a stray EOT
        call sendshort
        jr c, fail
        jr idle

; A timeout or a protocol error: release, count, wait for quiet lines, listen again.
fail:   ld a, 0C0h
        out (0), a
        ld hl, ERRS
        inc (hl)
resync: ld hl, 12000
rs1:    in a, (0)
        and 3
        cp 3
        jr nz, resync
        dec hl
        ld a, h
        or l
        jr nz, rs1
        jr idle

unexp:  ld a, ERR_UNEXP
        call seterr
        jr fail

; ------------------------------------------------------------------ LINK RECEIVE (1.7.1)
dovar:  ld a, 2
        ld (STATE), a
dv1:    ld hl, (PLEN)           ; an 11-byte variable header only
        ld de, 11
        or a
        sbc hl, de
        jr nz, unexp
        ld a, (NVARS)
        cp MAXVARS
        jr nc, dvskip
        ld hl, DATAEND          ; room for the data?
        ld de, (DATAPTR)
        or a
        sbc hl, de
        ld de, (PDATA)
        or a
        sbc hl, de
        jr c, dvskip
        ld a, 56h               ; ACK
        call sendshort
        jr c, fail
        ld a, 09h               ; CTS
        call sendshort
        jr c, fail
        ld a, 56h               ; its ACK
        call expect
        jr c, fail
        ld a, 15h               ; DATA, straight into DATAPTR
        call expect
        jr c, fail
        ld hl, (PLEN)           ; as long as announced
        ld de, (PDATA)
        or a
        sbc hl, de
        jr nz, unexp
        ld a, 56h               ; ACK
        call sendshort
        jr c, fail
        call entryaddr          ; keep the header and where the data is
        ex de, hl
        ld hl, PDATA
        ld bc, 11
        ldir
        ld hl, (DATAPTR)
        ex de, hl
        ld (hl), e
        inc hl
        ld (hl), d
        ld hl, (DATAPTR)
        ld de, (PLEN)
        add hl, de
        ld (DATAPTR), hl
        ld hl, NVARS
        inc (hl)
        jr dvnext
dvskip: ld a, 56h               ; ACK, SKIP, wait ACK
        call sendshort
        jp c, fail
        ld hl, SKIPCODE
        ld de, 1
        ld a, 36h
        call sendlong
        jp c, fail
        ld a, 56h
        call expect
        jp c, fail
        ld hl, SKIPS
        inc (hl)
dvnext: call getpkt             ; the next VAR or EOT
        jp c, fail
        cp 06h
        jp z, dv1
        cp 92h
        jp nz, unexp
        ld a, 56h
        call sendshort
        jp c, fail
        ld hl, DONE
        inc (hl)
        jp idle

; HL = TAB + 16 * NVARS
entryaddr:
        ld a, (NVARS)
        ld l, a
        ld h, 0
        add hl, hl
        add hl, hl
        add hl, hl
        add hl, hl
        ld de, TAB
        add hl, de
        ret

; ------------------------------------------------------------------ silent REQ (1.7.6)
doreq:  ld a, 3
        ld (STATE), a
        ld hl, (PLEN)
        ld de, 11
        or a
        sbc hl, de
        jp nz, unexp
        ld a, (NVARS)           ; find type and name (header bytes 2-10)
        ld b, a
        ld hl, TAB
dq1:    ld a, b
        or a
        jp z, dqmiss
        push bc
        push hl
        inc hl
        inc hl
        ld de, PDATA + 2
        ld b, 9
dq2:    ld a, (de)
        cp (hl)
        jr nz, dq3
        inc hl
        inc de
        djnz dq2
dq3:    pop hl
        pop bc
        jr z, dqfound
        ld de, 16
        add hl, de
        dec b
        jr dq1
dqfound:
        ld (ENTRY), hl
        ld a, 56h               ; ACK
        call sendshort
        jp c, fail
        ld hl, (ENTRY)          ; VAR with the header as received
        ld de, 11
        ld a, 06h
        call sendlong
        jp c, fail
        ld a, 56h               ; wait ACK
        call expect
        jp c, fail
        call getpkt             ; wait CTS (or SKIP/EXIT)
        jp c, fail
        cp 09h
        jr z, dqcts
        cp 36h
        jp nz, unexp
        ld a, 56h               ; ACK the refusal, done
        call sendshort
        jp c, fail
        jp idle
dqcts:  ld a, 56h               ; ACK
        call sendshort
        jp c, fail
        ld hl, (ENTRY)          ; DATA: size from the header, bytes from the stored address
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld bc, 10
        add hl, bc
        ld a, (hl)
        inc hl
        ld h, (hl)
        ld l, a
        ld a, 15h
        call sendlong
        jp c, fail
        ld a, 56h               ; wait ACK
        call expect
        jp c, fail
        ld hl, SERVED
        inc (hl)
        jp idle
dqmiss: ld a, 56h               ; ACK, EXIT, wait ACK
        call sendshort
        jp c, fail
        ld hl, EXITCODE
        ld de, 1
        ld a, 36h
        call sendlong
        jp c, fail
        ld a, 56h
        call expect
        jp c, fail
        ld hl, MISSING
        inc (hl)
        jp idle

SKIPCODE: db 2
EXITCODE: db 1

; ------------------------------------------------------------------ packets

; LASTERR = A; carry set.
seterr: ld (LASTERR), a
        scf
        ret

; A packet of command A with a good checksum. Carry on failure.
expect: ld (WANT), a
        call getpkt
        ret c
        ld hl, WANT
        cp (hl)
        ret z
        ld a, ERR_UNEXP
        jr seterr

; A packet with a good checksum; a bad one is answered ERR and expected again (at most 3
; times). Out: A = command, carry on failure.
getpkt: ld a, 4
        ld (TRIES), a
gp1:    call recvpkt
        ret c
        ld a, (BADSUM)
        or a
        jr z, gpok
        ld hl, NAKS
        inc (hl)
        ld a, 5Ah
        call sendshort
        ret c
        ld hl, TRIES
        dec (hl)
        jr nz, gp1
        ld a, ERR_SUM
        jr seterr
gpok:   ld a, (PHDR + 1)
        ret

; One packet: PHDR, PLEN, BADSUM; the data of DATA goes to (DATAPTR) (at most up to
; DATAEND), of the others to PDATA (at most 16 bytes). Out: A = command, carry on a timeout
; or a packet too long.
recvpkt:
        call recvbyte
        ret c
        ld a, c
        ld (PHDR), a
        call recvbyte
        ret c
        ld a, c
        ld (PHDR + 1), a
        call recvbyte
        ret c
        ld a, c
        ld (PHDR + 2), a
        call recvbyte
        ret c
        ld a, c
        ld (PHDR + 3), a
        xor a
        ld (BADSUM), a
        ld hl, 0
        ld (PLEN), hl
        ld a, (PHDR + 1)        ; data follows for VAR, DATA, SKIP/EXIT, REQ, RTS only
        cp 06h
        jr z, rpdata
        cp 15h
        jr z, rpdata
        cp 36h
        jr z, rpdata
        cp 0A2h
        jr z, rpdata
        cp 0C9h
        jp nz, rpdone
rpdata: ld hl, (PHDR + 2)
        ld (PLEN), hl
        ld a, h
        or l
        jr z, rpdone            ; length 0: no data, no checksum
        ld a, (PHDR + 1)
        cp 15h
        jr z, rpbig
        ld de, PDATA
        ld bc, 16
        jr rplim
rpbig:  ld de, (DATAPTR)
        ld hl, DATAEND
        or a
        sbc hl, de
        ld b, h
        ld c, l
rplim:  ld hl, (PLEN)           ; PLEN <= limit?
        or a
        sbc hl, bc
        jr c, rpok
        jr z, rpok
        ld a, ERR_LONG
        jp seterr
rpok:   ld (DEST), de
        ld hl, (PLEN)
        ld (COUNT), hl
        ld hl, 0
        ld (SUM), hl
rploop: ld hl, (COUNT)
        ld a, h
        or l
        jr z, rpsum
        dec hl
        ld (COUNT), hl
        call recvbyte
        ret c
        ld hl, (DEST)
        ld (hl), c
        inc hl
        ld (DEST), hl
        ld hl, (SUM)
        ld b, 0
        add hl, bc
        ld (SUM), hl
        jr rploop
rpsum:  call recvbyte
        ret c
        ld a, c
        ld (CHK), a
        call recvbyte
        ret c
        ld a, c
        ld (CHK + 1), a
        ld hl, (SUM)
        ld de, (CHK)
        or a
        sbc hl, de
        jr z, rpdone
        ld a, 1
        ld (BADSUM), a
rpdone: ld a, (PHDR + 1)
        or a
        ret

; A packet without data: 82h, A, 00, 00. Carry on a timeout.
sendshort:
        ld (SCMD), a
        ld c, 82h
        call sendbyte
        ret c
        ld a, (SCMD)
        ld c, a
        call sendbyte
        ret c
        ld c, 0
        call sendbyte
        ret c
        ld c, 0
        jp sendbyte

; A packet with data: 82h, A, length DE, DE bytes from HL, checksum. Carry on a timeout.
sendlong:
        ld (SCMD), a
        ld (SPTR), hl
        ld (SLEN), de
        ld c, 82h
        call sendbyte
        ret c
        ld a, (SCMD)
        ld c, a
        call sendbyte
        ret c
        ld a, (SLEN)
        ld c, a
        call sendbyte
        ret c
        ld a, (SLEN + 1)
        ld c, a
        call sendbyte
        ret c
        ld hl, 0
        ld (SUM), hl
sl1:    ld hl, (SLEN)
        ld a, h
        or l
        jr z, sl2
        dec hl
        ld (SLEN), hl
        ld hl, (SPTR)
        ld c, (hl)
        inc hl
        ld (SPTR), hl
        ld hl, (SUM)
        ld b, 0
        add hl, bc
        ld (SUM), hl
        call sendbyte
        ret c
        jr sl1
sl2:    ld a, (SUM)
        ld c, a
        call sendbyte
        ret c
        ld a, (SUM + 1)
        ld c, a
        jp sendbyte

; ------------------------------------------------------------------ bytes (2.2)

; Sends C, LSB first. Carry on a timeout.
sendbyte:
        ld b, 8
sbit:   ld d, 3                 ; both lines high
        ld e, 3
        call waiteq
        ret c
        rr c
        jr c, sone
        ld a, 0D4h              ; 0: pull tip
        out (0), a
        ld d, 2                 ; wait for the ring (acknowledge)
        ld e, 0
        call waiteq
        ret c
        jr srel
sone:   ld a, 0E8h              ; 1: pull ring
        out (0), a
        ld d, 1                 ; wait for the tip (acknowledge)
        ld e, 0
        call waiteq
        ret c
srel:   ld a, 0C0h
        out (0), a
        ld d, 3                 ; the receiver releases too
        ld e, 3
        call waiteq
        ret c
        djnz sbit
        ret

; Receives into C, LSB first. The first wait has no timeout while FOREVER is set. Carry on a
; timeout.
recvbyte:
        ld b, 8
rbit:   ld d, 3                 ; one line low
        ld e, 3
        call waitne
        ret c
        ld e, a
        xor a
        ld (FOREVER), a
        ld a, e
        cp 2
        jr nz, rone
        ld a, 0E8h              ; tip low: a 0; acknowledge on the ring
        out (0), a
        ld d, 1                 ; wait for the tip to go high
        ld e, 1
        call waiteq
        ret c
        ld a, 0C0h
        out (0), a
        or a                    ; carry = 0
        jr rstore
rone:   ld a, 0D4h              ; ring low: a 1; acknowledge on the tip
        out (0), a
        ld d, 2                 ; wait for the ring to go high
        ld e, 2
        call waiteq
        ret c
        ld a, 0C0h
        out (0), a
        scf
rstore: rr c
        djnz rbit
        or a
        ret

; Waits until (port 0 AND D) = E (waiteq) or <> E (waitne), polling TMOHI x 65536 times
; (again and again while FOREVER is set). Out: A = port 0 AND D; carry and LASTERR = 1 on a
; timeout. Keeps BC, DE; uses HL.
waiteq: push bc
weq0:   ld a, (TMOHI)
        ld c, a
        ld hl, 0
weq1:   in a, (0)
        and d
        cp e
        jr z, wok
        dec hl
        ld a, h
        or l
        jr nz, weq1
        dec c
        jr nz, weq1
        ld a, (FOREVER)
        or a
        jr nz, weq0
        jr wtmo

waitne: push bc
wne0:   ld a, (TMOHI)
        ld c, a
        ld hl, 0
wne1:   in a, (0)
        and d
        cp e
        jr nz, wok
        dec hl
        ld a, h
        or l
        jr nz, wne1
        dec c
        jr nz, wne1
        ld a, (FOREVER)
        or a
        jr nz, wne0
wtmo:   pop bc
        ld a, ERR_TIMEOUT
        jp seterr
wok:    pop bc
        or a                    ; carry = 0, A kept
        ret
