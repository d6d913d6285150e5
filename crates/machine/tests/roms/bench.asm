; Benchmark and determinism workload: the timer interrupt on (port 04h = 16h), steady LCD
; traffic (a 64-byte column every pass, >= 60 T-states between accesses, no status polling so
; a flat-RAM bus runs it the same), a 128-byte LDIR and some arithmetic. Runs forever.
        org 0
        di
        ld sp, 0
        jp main
        ds 38h - $
isr:
        push af
        push hl
        ld hl, (8000h)
        inc hl
        ld (8000h), hl
        ld a, 08h
        out (3), a
        ld a, 0Ah
        out (3), a
        pop hl
        pop af
        ei
        ret

main:
        im 1
        ld a, 16h
        out (4), a
        ld a, 0Ah
        out (3), a
        ld a, 01h
        out (10h), a
        call delay
        ld a, 05h
        out (10h), a
        call delay
        ld a, 03h
        out (10h), a
        call delay
        ei
        ld c, 0                 ; column
        ld de, 1234h            ; running state
loop:
        ld a, c
        and 0Fh
        cp 12
        jr c, colok
        ld c, 0
        xor a
colok:  or 20h
        out (10h), a
        call delay
        ld a, 80h
        out (10h), a
        call delay
        ld hl, 0A000h
        ld b, 64
col:    ld a, (hl)              ; 7
        xor e                   ; 4
        out (11h), a            ; 11
        add a, d                ; 4
        ld d, a                 ; 4
        rlca                    ; 4
        xor d                   ; 4
        ld e, a                 ; 4
        inc hl                  ; 6
        ex (sp), hl             ; 19
        ex (sp), hl             ; 19
        djnz col                ; 13
        inc c
        ; block copy 128 bytes within RAM
        push bc
        push de
        ld hl, 0A000h
        ld de, 0A201h
        ld bc, 128
        ldir
        pop de
        pop bc
        ; a little multiply: HL = D * E by shifts
        push bc
        ld hl, 0
        ld a, d
        ld b, 8
mul:    add hl, hl
        rla
        jr nc, mul1
        push de
        ld d, 0
        add hl, de
        pop de
mul1:   djnz mul
        ld (0A000h), hl
        pop bc
        jp loop

delay:  push bc
        ld b, 4
dl:     djnz dl
        pop bc
        ret
