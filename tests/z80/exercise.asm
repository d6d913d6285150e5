; exercise.asm: the exerciser workload of `cargo xtask bench-z80`.
;
; In the manner of the classic instruction exercisers: every opcode of every page (unprefixed,
; CB, ED, DD, FD, DDCB, FDCB; documented and undocumented, block instructions included) is run
; ITERS times per pass on machine states drawn from a 16-bit xorshift generator, and the
; registers after each run (AF BC DE HL IX IY SP) are folded into a table-driven CRC-32; at
; the end of each page the scratch memory the instructions may write is folded in too.
; Left out (they leave the test slot or stop the CPU): JP/CALL/RET/RST and their conditional
; forms, JP (HL)/(IX)/(IY), RETN/RETI, HALT, DI/EI, prefixes as opcodes, LD A,R (R counts
; the driver's own instructions) and the ED opcodes that do nothing (8 T-state NOPs on the
; Z80, including the IM mirrors ED 4Eh/6Eh): the peer core times them as 0 T-states; and
; OUTD/OTDR, whose flags the peer computes otherwise. JR/DJNZ run with displacement 0, so taken and not taken
; both continue with the next instruction.
;
; Operands: HL, DE, BC, IX and IY point into scratch memory (high byte C0h-C3h, low byte
; random); SP is C800h; A, F, the low bytes, 8-bit immediates and displacements are random;
; (nn) operands point into scratch too; repeating block instructions get B in 0-3 (at most
; 1023 iterations). The flat bus's ports read FFh.
;
; The pass count is the word at 0003h (LOOPS), patched by the benchmark; each pass reseeds the
; generator from the pass number. Results: CRC at RESULTS (4 bytes, NOT of the running CRC),
; DONE = A5h; then HALT. Both cores must end with the same memory, registers and T-states.
;
; The opcode tables (kinds below) were written by enumerating the Z80 opcode map (x/y/z
; fields): 0 skip, 1 no operand, 2 imm8, 3 imm16 pointing into scratch, 4 displacement,
; 5 displacement + imm8, 6 displacement 0 (JR/DJNZ), 7 any imm16, 8 repeating block
; instruction (no operand, B masked).

ITERS:   equ 8
SCRATCH: equ 0xB000             ; B000h-D3FFh: what the instructions may write
SCRLEN:  equ 0x2400
TABLE:   equ 0x8000             ; CRC-32 table, four 256-byte pages (byte k of entry i at
                                ; TABLE + 256*k + i)
VARS:    equ 0x8400
SEED:    equ VARS + 0           ; 2 bytes
COUNT:   equ VARS + 2           ; 2 bytes: passes still to run
PAGE:    equ VARS + 4           ; 1 byte
OP:      equ VARS + 5           ; 1 byte
KIND:    equ VARS + 6           ; 1 byte
ITER:    equ VARS + 7           ; 1 byte
SPSAVE:  equ VARS + 8           ; 2 bytes
CRCV:    equ VARS + 10          ; 4 bytes: running CRC (not inverted), low byte first
KTAB:    equ VARS + 14          ; 2 bytes: this page's kind table
STATE:   equ VARS + 16          ; 12 bytes: IY IX HL DE BC AF as popped
OUTR:    equ VARS + 32          ; 12 bytes: IY IX HL DE BC AF as pushed, then SP
OUTSP:   equ OUTR + 12
SLOT:    equ VARS + 64          ; the instruction under test, then JP back
STACK:   equ 0x8800
RESULTS: equ 0x7F00
CRC:     equ RESULTS + 0
DONE:    equ RESULTS + 4

        org 0
        jp start
LOOPS:  dw 1                    ; patched by the benchmark

start:
        di
        ld sp, STACK
        ld hl, (LOOPS)
        ld (COUNT), hl
        xor a
        ld (DONE), a
        ld hl, 0xFFFF
        ld (CRCV), hl
        ld (CRCV + 2), hl
        call make_table
        exx                     ; the alternate set starts known (EXX, EX AF,AF' test it)
        ld bc, 0x0123
        ld de, 0x4567
        ld hl, 0x89AB
        exx
        ld hl, 0xCDEF
        push hl
        pop af
        ex af, af'
        ld hl, SCRATCH          ; scratch starts zeroed
        ld de, SCRATCH + 1
        ld bc, SCRLEN - 1
        ld (hl), 0
        ldir

pass_loop:
        ld hl, (COUNT)
        ld a, h
        xor 0x5A
        ld h, a
        set 0, l                ; never zero
        ld (SEED), hl
        xor a
page_loop:
        ld (PAGE), a
        ld l, a
        ld h, 0
        add hl, hl
        ld de, kind_tables
        add hl, de
        ld e, (hl)
        inc hl
        ld d, (hl)
        ld (KTAB), de
        xor a
op_loop:
        ld (OP), a
        ld hl, (KTAB)
        ld e, a
        ld d, 0
        add hl, de
        ld a, (hl)
        or a
        jr z, op_next
        ld (KIND), a
        ld a, ITERS
iter_loop:
        ld (ITER), a
        call make_state
        call make_slot
        ld (SPSAVE), sp
        ld sp, STATE
        pop iy
        pop ix
        pop hl
        pop de
        pop bc
        pop af
        ld sp, 0xC800
        jp SLOT
back:
        ld (OUTSP), sp
        ld sp, OUTSP
        push af
        push bc
        push de
        push hl
        push ix
        push iy
        ld sp, (SPSAVE)
        ld a, (OUTR + 10)       ; F: the documented flags only (see the header)
        and 0xD7
        ld (OUTR + 10), a
        ld hl, OUTR
        ld bc, 14
        call crc_block
        ld a, (ITER)
        dec a
        jp nz, iter_loop
op_next:
        ld a, (OP)
        inc a
        jp nz, op_loop
        ld hl, SCRATCH
        ld bc, SCRLEN
        call crc_block
        ld a, (PAGE)
        inc a
        cp 7
        jp nz, page_loop
        ld hl, (COUNT)
        dec hl
        ld (COUNT), hl
        ld a, h
        or l
        jp nz, pass_loop
        ld hl, CRCV             ; RESULTS = NOT CRCV
        ld de, CRC
        ld b, 4
fin:
        ld a, (hl)
        cpl
        ld (de), a
        inc hl
        inc de
        djnz fin
        ld a, 0xA5
        ld (DONE), a
        halt

; ------------------------------------------------------------------ state and slot
; HL = next xorshift value (7, 9, 8 on 16 bits).
rand:
        ld hl, (SEED)
        ld a, h
        rra
        ld a, l
        rra
        xor h
        ld h, a
        ld a, l
        rra
        ld a, h
        rra
        xor l
        ld l, a
        xor h
        ld h, a
        ld (SEED), hl
        ret

; A = a random high byte of a scratch pointer (C0h-C3h).
rand_ptr_hi:
        call rand
        ld a, h
        and 3
        or 0xC0
        ret

make_state:
        ld ix, STATE
        ld b, 5                 ; IY IX HL DE BC: pointers into scratch
ms_ptr:
        call rand_ptr_hi
        ld (ix + 1), a
        ld (ix + 0), l
        inc ix
        inc ix
        djnz ms_ptr
        call rand               ; AF: anything
        ld (ix + 0), l
        ld (ix + 1), h
        ld a, (KIND)
        cp 8
        ret nz
        ld a, (STATE + 9)       ; repeating block instruction: B = 0-3
        and 3
        ld (STATE + 9), a
        ret

; Writes the instruction for PAGE/OP/KIND at SLOT, then JP back.
make_slot:
        ld de, SLOT
        ld a, (PAGE)
        ld l, a
        ld h, 0
        ld bc, prefix1
        add hl, bc
        ld a, (hl)
        or a
        jr z, mk_op
        ld (de), a
        inc de
        ld bc, 7
        add hl, bc              ; prefix2 follows prefix1 (7 bytes on)
        ld a, (hl)
        or a
        jr z, mk_op
        ld (de), a              ; DDCB/FDCB: CB, then the displacement, then the opcode
        inc de
        push de
        call rand
        pop de
        ld a, l
        ld (de), a
        inc de
        ld a, (OP)
        ld (de), a
        inc de
        jr mk_jp
mk_op:
        ld a, (OP)
        ld (de), a
        inc de
        ld a, (KIND)
        cp 2
        jr z, mk_imm8
        cp 3
        jr z, mk_ptr
        cp 4
        jr z, mk_imm8
        cp 5
        jr z, mk_two
        cp 6
        jr z, mk_zero
        cp 7
        jr z, mk_two
        jr mk_jp                ; 1, 8: no operand
mk_ptr:
        push de
        call rand_ptr_hi
        pop de
        ex de, hl
        ld (hl), e
        inc hl
        ld (hl), a
        inc hl
        ex de, hl
        jr mk_jp
mk_two:
        push de
        call rand
        pop de
        ex de, hl
        ld (hl), e
        inc hl
        ld (hl), d
        inc hl
        ex de, hl
        jr mk_jp
mk_imm8:
        push de
        call rand
        pop de
        ld a, l
        ld (de), a
        inc de
        jr mk_jp
mk_zero:
        xor a
        ld (de), a
        inc de
mk_jp:
        ex de, hl
        ld (hl), 0xC3
        inc hl
        ld (hl), back & 0xFF
        inc hl
        ld (hl), back >> 8
        ret

prefix1: db 0, 0xCB, 0xED, 0xDD, 0xFD, 0xDD, 0xFD
prefix2: db 0, 0, 0, 0, 0, 0xCB, 0xCB

; ------------------------------------------------------------------ CRC-32
; Folds BC bytes at HL into CRCV (table-driven, reflected polynomial EDB88320h).
crc_block:
        push bc
        exx
        pop bc                  ; BC' = count
        exx
        ld iy, CRCV
        ld e, (iy + 0)
        ld d, (iy + 1)
        ld c, (iy + 2)
        ld b, (iy + 3)
cb_loop:
        ld a, (hl)
        inc hl
        push hl
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
        pop hl
        exx
        dec bc
        ld a, b
        or c
        exx
        jr nz, cb_loop
        ld (iy + 0), e
        ld (iy + 1), d
        ld (iy + 2), c
        ld (iy + 3), b
        ret

; One bit step of the reflected CRC-32 on DEHL (D high, L low), eight times.
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

; ------------------------------------------------------------------ opcode tables
kind_tables: dw kinds_none, kinds_cb, kinds_ed, kinds_dd, kinds_fd, kinds_ddcb, kinds_fdcb
; page none: 213 opcodes
kinds_none:
        db 1, 7, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1   ; 00h-0Fh
        db 6, 7, 1, 1, 1, 1, 2, 1, 6, 1, 1, 1, 1, 1, 2, 1   ; 10h-1Fh
        db 6, 7, 3, 1, 1, 1, 2, 1, 6, 1, 3, 1, 1, 1, 2, 1   ; 20h-2Fh
        db 6, 7, 3, 1, 1, 1, 2, 1, 6, 1, 3, 1, 1, 1, 2, 1   ; 30h-3Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 40h-4Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 50h-5Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 60h-6Fh
        db 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 70h-7Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 80h-8Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 90h-9Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; A0h-AFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; B0h-BFh
        db 0, 1, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0   ; C0h-CFh
        db 0, 1, 0, 2, 0, 1, 2, 0, 0, 1, 0, 2, 0, 0, 2, 0   ; D0h-DFh
        db 0, 1, 0, 1, 0, 1, 2, 0, 0, 0, 0, 1, 0, 0, 2, 0   ; E0h-EFh
        db 0, 1, 0, 0, 0, 1, 2, 0, 0, 1, 0, 0, 0, 0, 2, 0   ; F0h-FFh
; page CB: 256 opcodes
kinds_cb:
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 00h-0Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 10h-1Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 20h-2Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 30h-3Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 40h-4Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 50h-5Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 60h-6Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 70h-7Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 80h-8Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 90h-9Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; A0h-AFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; B0h-BFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; C0h-CFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; D0h-DFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; E0h-EFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; F0h-FFh
; page ED: 66 opcodes
kinds_ed:
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; 00h-0Fh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; 10h-1Fh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; 20h-2Fh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; 30h-3Fh
        db 1, 1, 1, 3, 1, 0, 1, 1, 1, 1, 1, 3, 1, 0, 0, 1   ; 40h-4Fh
        db 1, 1, 1, 3, 1, 0, 1, 1, 1, 1, 1, 3, 1, 0, 1, 0   ; 50h-5Fh
        db 1, 1, 1, 3, 1, 0, 1, 1, 1, 1, 1, 3, 1, 0, 0, 1   ; 60h-6Fh
        db 1, 1, 1, 3, 1, 0, 1, 0, 1, 1, 1, 3, 1, 0, 1, 0   ; 70h-7Fh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; 80h-8Fh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; 90h-9Fh
        db 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0   ; A0h-AFh
        db 8, 8, 8, 8, 0, 0, 0, 0, 8, 8, 8, 0, 0, 0, 0, 0   ; B0h-BFh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; C0h-CFh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; D0h-DFh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; E0h-EFh
        db 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0   ; F0h-FFh
; pages DD and FD (one table): 213 opcodes each
kinds_dd:
kinds_fd:
        db 1, 7, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1   ; 00h-0Fh
        db 6, 7, 1, 1, 1, 1, 2, 1, 6, 1, 1, 1, 1, 1, 2, 1   ; 10h-1Fh
        db 6, 7, 3, 1, 1, 1, 2, 1, 6, 1, 3, 1, 1, 1, 2, 1   ; 20h-2Fh
        db 6, 7, 3, 1, 4, 4, 5, 1, 6, 1, 3, 1, 1, 1, 2, 1   ; 30h-3Fh
        db 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 4, 1   ; 40h-4Fh
        db 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 4, 1   ; 50h-5Fh
        db 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 4, 1   ; 60h-6Fh
        db 4, 4, 4, 4, 4, 4, 0, 4, 1, 1, 1, 1, 1, 1, 4, 1   ; 70h-7Fh
        db 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 4, 1   ; 80h-8Fh
        db 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 4, 1   ; 90h-9Fh
        db 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 4, 1   ; A0h-AFh
        db 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 4, 1   ; B0h-BFh
        db 0, 1, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0   ; C0h-CFh
        db 0, 1, 0, 2, 0, 1, 2, 0, 0, 1, 0, 2, 0, 0, 2, 0   ; D0h-DFh
        db 0, 1, 0, 1, 0, 1, 2, 0, 0, 0, 0, 1, 0, 0, 2, 0   ; E0h-EFh
        db 0, 1, 0, 0, 0, 1, 2, 0, 0, 1, 0, 0, 0, 0, 2, 0   ; F0h-FFh
; pages DDCB and FDCB (one table): 256 opcodes each
kinds_ddcb:
kinds_fdcb:
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 00h-0Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 10h-1Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 20h-2Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 30h-3Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 40h-4Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 50h-5Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 60h-6Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 70h-7Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 80h-8Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; 90h-9Fh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; A0h-AFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; B0h-BFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; C0h-CFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; D0h-DFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; E0h-EFh
        db 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1   ; F0h-FFh
