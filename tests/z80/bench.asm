; bench.asm: the fixed workload of `cargo xtask bench-z80`.
;
; Runs on a flat 64 KiB RAM machine from 0000h and ends in HALT. Each pass of the main loop:
;   1. fills a 1 KiB buffer from a 16-bit linear congruential generator (16-bit arithmetic),
;   2. copies it away with LDIR and back, shifted by one byte, with LDDR (block moves),
;   3. updates 64 eight-byte records through IX (IX-indexed loads and stores, DDCB ops),
;   4. sieves the primes below 2048 and counts them with CPIR,
;   5. computes fib(14) recursively (calls, returns, pushes and pops),
;   6. computes the CRC-32 of the first 256 buffer bytes bit by bit (CB shifts and rotates),
;   7. computes the CRC-32 of the whole buffer with a table (IY-indexed loads),
;   8. adds the CRC into a 32-bit running sum (ADC HL,DE).
; The pass count is the word at 0003h (LOOPS): `bench.rs` patches it to scale the run.
; The results land at RESULTS (see below), where `bench.rs` checks them.
;
; Assemble with `cargo xtask test-roms` (Debian's z80asm) into bench.bin.

BUF:     equ 0x9000             ; 1 KiB of pseudo-random data
BUFLEN:  equ 1024
COPY:    equ 0x9400             ; LDIR/LDDR scratch copy of BUF
REC:     equ 0xA000             ; 64 records of 8 bytes
NREC:    equ 64
SIEVE:   equ 0xB000             ; one flag byte per number below 2048
SIEVEN:  equ 2048
TABLE:   equ 0x8000             ; CRC-32 table: four 256-byte pages, byte k of entry i at
                                ; TABLE + 256*k + i

RESULTS: equ 0x7F00
CRC:     equ RESULTS + 0        ; 4 bytes: table CRC-32 of BUF (last pass)
BITCRC:  equ RESULTS + 4        ; 4 bytes: bitwise CRC-32 of BUF[0..256] (last pass)
SUM:     equ RESULTS + 8        ; 4 bytes: sum of every pass's CRC
PRIMES:  equ RESULTS + 12       ; 2 bytes: number of primes below 2048 (last pass)
FIB:     equ RESULTS + 14       ; 2 bytes: fib(14) (last pass)
SEED:    equ RESULTS + 16       ; 2 bytes: LCG state
COUNT:   equ RESULTS + 18       ; 2 bytes: passes still to run
DONE:    equ RESULTS + 20       ; 1 byte: A5h once the loop has finished

        org 0
        jp start
LOOPS:  dw 16                   ; patched by bench.rs

start:
        di
        ld sp, 0
        ld hl, (LOOPS)
        ld (COUNT), hl
        ld hl, 0x1234
        ld (SEED), hl
        ld hl, 0
        ld (SUM), hl
        ld (SUM + 2), hl
        xor a
        ld (DONE), a
        call make_table
        call fill
        ld hl, BUF              ; the records start as a copy of the first buffer
        ld de, REC
        ld bc, NREC * 8
        ldir

main_loop:
        call fill
        call shuffle
        call records
        call sieve
        ld a, 14
        call fib
        ld (FIB), hl
        call bitcrc
        call tablecrc
        ; SUM += CRC (32 bits)
        ld hl, (SUM)
        ld de, (CRC)
        add hl, de
        ld (SUM), hl
        ld hl, (SUM + 2)
        ld de, (CRC + 2)
        adc hl, de
        ld (SUM + 2), hl
        ld hl, (COUNT)
        dec hl
        ld (COUNT), hl
        ld a, h
        or l
        jp nz, main_loop

        ld a, 0xA5
        ld (DONE), a
        halt

; ------------------------------------------------------------------ buffer fill
; BUF[i] = high byte of x, x = 5x + 3619h (mod 2^16), x kept in SEED.
fill:
        ld hl, (SEED)
        ld ix, BUF
        ld bc, BUFLEN
fill_loop:
        ld d, h
        ld e, l
        add hl, hl
        add hl, hl
        add hl, de
        ld de, 0x3619
        add hl, de
        ld (ix + 0), h
        inc ix
        dec bc
        ld a, b
        or c
        jr nz, fill_loop
        ld (SEED), hl
        ret

; ------------------------------------------------------------------ block moves
; COPY = BUF, then BUF[1..] = COPY[0..1023] copied backwards.
shuffle:
        ld hl, BUF
        ld de, COPY
        ld bc, BUFLEN
        ldir
        ld hl, COPY + BUFLEN - 2
        ld de, BUF + BUFLEN - 1
        ld bc, BUFLEN - 1
        lddr
        ret

; ------------------------------------------------------------------ records
; Each record: +0/+1 position, +2/+3 velocity, +4 flags, +5 counter, +6 rotor, +7 sum.
; Eight passes over all records.
records:
        ld c, 8
rec_pass:
        ld ix, REC
        ld b, NREC
rec_loop:
        ld l, (ix + 0)
        ld h, (ix + 1)
        ld e, (ix + 2)
        ld d, (ix + 3)
        add hl, de
        ld (ix + 0), l
        ld (ix + 1), h
        bit 7, h
        jr z, rec_pos
        set 0, (ix + 4)
        jr rec_cont
rec_pos:
        res 0, (ix + 4)
rec_cont:
        inc (ix + 5)
        rlc (ix + 6)
        ld a, (ix + 4)
        add a, (ix + 7)
        xor (ix + 5)
        ld (ix + 7), a
        ld de, 8
        add ix, de
        djnz rec_loop
        dec c
        jr nz, rec_pass
        ret

; ------------------------------------------------------------------ prime sieve
; SIEVE[n] = 1 for prime n < 2048; PRIMES = their number.
sieve:
        ld hl, SIEVE
        ld (hl), 1
        ld de, SIEVE + 1
        ld bc, SIEVEN - 1
        ldir
        xor a
        ld (SIEVE), a
        ld (SIEVE + 1), a
        ld bc, 2                ; p
sv_outer:
        ld hl, SIEVE
        add hl, bc
        ld a, (hl)
        or a
        jr z, sv_next
        add hl, bc              ; SIEVE + 2p
sv_inner:
        ld a, h
        cp (SIEVE + SIEVEN) >> 8
        jr nc, sv_next
        ld (hl), 0
        add hl, bc
        jr sv_inner
sv_next:
        inc c
        ld a, c
        cp 46                   ; 46 * 46 > 2048
        jr nz, sv_outer
        ; count the ones
        ld hl, SIEVE
        ld bc, SIEVEN
        ld de, 0
        ld a, 1
sv_count:
        cpir
        jr nz, sv_done
        inc de
        jp pe, sv_count
sv_done:
        ld (PRIMES), de
        ret

; ------------------------------------------------------------------ recursion
; HL = fib(A).
fib:
        cp 2
        jr nc, fib_rec
        ld h, 0
        ld l, a
        ret
fib_rec:
        dec a
        push af
        call fib
        pop af
        push hl
        dec a
        call fib
        pop de
        add hl, de
        ret

; ------------------------------------------------------------------ CRC-32
; One bit step of the reflected CRC-32 (polynomial EDB88320h) on DEHL (D high, L low),
; eight times.
crc8bits:
        ld b, 8
c8_bit:
        srl d
        rr e
        rr h
        rr l
        jr nc, c8_nox
        ld a, d
        xor 0xED
        ld d, a
        ld a, e
        xor 0xB8
        ld e, a
        ld a, h
        xor 0x83
        ld h, a
        ld a, l
        xor 0x20
        ld l, a
c8_nox:
        djnz c8_bit
        ret

make_table:
        ld c, 0
mt_next:
        ld de, 0
        ld h, 0
        ld l, c
        call crc8bits
        ld b, TABLE >> 8
        ld a, l
        ld (bc), a
        inc b
        ld a, h
        ld (bc), a
        inc b
        ld a, e
        ld (bc), a
        inc b
        ld a, d
        ld (bc), a
        inc c
        jr nz, mt_next
        ret

; Bitwise CRC-32 of BUF[0..256] into BITCRC.
bitcrc:
        ld iy, BUF
        ld de, 0xFFFF
        ld hl, 0xFFFF
        ld c, 0
bc_byte:
        ld a, (iy + 0)
        inc iy
        xor l
        ld l, a
        call crc8bits
        dec c
        jr nz, bc_byte
        ld iy, BITCRC
        jr store_crc

; Table-driven CRC-32 of BUF into CRC. CRC in BCDE (B high), length counter in BC'.
tablecrc:
        ld iy, BUF
        exx
        ld bc, BUFLEN
        exx
        ld bc, 0xFFFF
        ld d, b
        ld e, c
tc_loop:
        ld a, (iy + 0)
        inc iy
        xor e
        ld l, a
        ld h, TABLE >> 8
        ld a, (hl)
        xor d
        ld e, a
        inc h
        ld a, (hl)
        xor c
        ld d, a
        inc h
        ld a, (hl)
        xor b
        ld c, a
        inc h
        ld b, (hl)
        exx
        dec bc
        ld a, b
        or c
        exx
        jr nz, tc_loop
        ld h, d                 ; into DEHL for store_crc
        ld l, e
        ld d, b
        ld e, c
        ld iy, CRC
        ; fall through

; Stores NOT DEHL little-endian at IY.
store_crc:
        ld a, l
        cpl
        ld (iy + 0), a
        ld a, h
        cpl
        ld (iy + 1), a
        ld a, e
        cpl
        ld (iy + 2), a
        ld a, d
        cpl
        ld (iy + 3), a
        ret
