; A small program for the debugger's Z80-level tests (tests/dap.rs): a loop that calls a
; subroutine and stores its result in RAM, then a port write, then an idle loop. The
; addresses the tests name are in the comments (assembled at 0000h).
        org 0
start:  di                      ; 0000h
        ld sp, 0FFF0h           ; 0001h
        ld hl, 9000h            ; 0004h  RAM
        ld b, 3                 ; 0007h
loop:   call double             ; 0009h
        ld (hl), a              ; 000Ch
        inc hl                  ; 000Dh
        djnz loop               ; 000Eh
        ld a, 0FEh              ; 0010h
        out (1), a              ; 0012h  the keypad's group mask (harmless)
idle:   jr idle                 ; 0014h
double: ld a, b                 ; 0016h
        add a, a                ; 0017h
        ret                     ; 0018h
