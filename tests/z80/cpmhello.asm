; cpmhello.asm: a small CP/M program for `cargo xtask cpm` and its unit test.
;
; Prints a greeting with BDOS 9, then computes 1+2+...+100, 123*45 and fib(20) and prints them
; in decimal one digit at a time with BDOS 2, then returns to CP/M with JP 0 (warm boot).
; Expected output (CR LF line ends):
;   Hello from CP/M!
;   sum 1..100 = 5050
;   123*45 = 5535
;   fib(20) = 6765
;
; Assemble with `cargo xtask test-roms` (Debian's z80asm) into cpmhello.com.

BDOS:   equ 0x0005
CONOUT: equ 2                   ; BDOS: print the character in E
PRINT:  equ 9                   ; BDOS: print the $-terminated string at DE

        org 0x0100
        ld sp, stack_top

        ld de, hello
        ld c, PRINT
        call BDOS

        ; sum 1..100
        ld de, msg_sum
        ld c, PRINT
        call BDOS
        ld hl, 0
        ld de, 0
        ld b, 100
sum_loop:
        inc de
        add hl, de
        djnz sum_loop
        call print_dec
        call crlf

        ; 123 * 45 by shift and add
        ld de, msg_mul
        ld c, PRINT
        call BDOS
        ld de, 123
        ld a, 45
        call mul8
        call print_dec
        call crlf

        ; fib(20) iteratively
        ld de, msg_fib
        ld c, PRINT
        call BDOS
        ld hl, 0                ; fib(0)
        ld de, 1                ; fib(1)
        ld b, 20
fib_loop:
        add hl, de              ; hl = f(n+2)
        ex de, hl               ; hl = f(n+1), de = f(n+2)
        djnz fib_loop
        call print_dec
        call crlf

        jp 0                    ; warm boot: back to CP/M

; HL = DE * A (8-bit multiplier, shift and add).
mul8:
        ld hl, 0
        ld b, 8
mul_loop:
        add hl, hl
        rlca
        jr nc, mul_skip
        add hl, de
mul_skip:
        djnz mul_loop
        ret

; Prints HL in decimal without leading zeros.
print_dec:
        ld e, 0                 ; nonzero once a digit was printed
        ld bc, -10000
        call pd_digit
        ld bc, -1000
        call pd_digit
        ld bc, -100
        call pd_digit
        ld bc, -10
        call pd_digit
        ld a, l
        add a, '0'
        jr putc
pd_digit:
        ld a, '0' - 1
pd_sub:
        inc a
        add hl, bc
        jr c, pd_sub
        sbc hl, bc              ; carry is clear here: undo the last subtraction
        cp '0'
        jr nz, putc_mark
        bit 0, e
        ret z                   ; leading zero: print nothing
putc_mark:
        ld e, 1
putc:
        push hl
        push de
        ld e, a
        ld c, CONOUT
        call BDOS
        pop de
        pop hl
        ret

crlf:
        ld a, 13
        call putc
        ld a, 10
        jr putc

hello:   db "Hello from CP/M!", 13, 10, "$"
msg_sum: db "sum 1..100 = $"
msg_mul: db "123*45 = $"
msg_fib: db "fib(20) = $"

        ds 64
stack_top:
