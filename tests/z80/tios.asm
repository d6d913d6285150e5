; tios.asm: the TI-OS-like workload of `cargo xtask bench-z80`, run on the whole TI-82
; machine (ports, paging, LCD, keypad, timer) as the ROM image's page 0.
;
; Like the OS: IM 1 with the timer interrupt on at about 208 Hz (port 04h = 12h); the handler
; counts ticks, scans the seven keypad groups through port 01h and acknowledges through
; port 03h. Each pass of the main loop:
;   1. pages ROM pages 1-7 in at 4000h (port 02h) and sums 256 bytes of each,
;   2. writes twelve 64-byte LCD columns in X auto-increment mode (ports 10h/11h, at least
;      60 T-states between accesses) and reads one back (dummy read first), summing both,
;   3. adds BCD numbers as the OS's floating point does (DAA, RLD),
;   4. looks names up in a VAT-like table (CPIR, compare loops) and moves a block (LDIR).
; The pass count is the word at 0003h; at the end: DI, results at RESULTS, DONE = A5h, HALT.

RESULTS: equ 0x8000
TICKS:   equ RESULTS + 0        ; 2 bytes: timer interrupts taken
ROMSUM:  equ RESULTS + 2        ; 2 bytes: sum of the paged bytes (last pass)
WSUM:    equ RESULTS + 4        ; 2 bytes: sum of the bytes written to the read-back column
RSUM:    equ RESULTS + 6        ; 2 bytes: sum of the bytes read back from it
FOUND:   equ RESULTS + 8        ; 2 bytes: names found
DONE:    equ RESULTS + 10       ; 1 byte
COUNT:   equ RESULTS + 12       ; 2 bytes: passes still to run
SEED:    equ RESULTS + 14       ; 1 byte
KEYS:    equ RESULTS + 16       ; 7 bytes: the last keypad scan
BCD1:    equ RESULTS + 32       ; 8-byte BCD numbers
BCD2:    equ RESULTS + 40
NAME:    equ RESULTS + 48       ; 7 bytes: the name looked up
VAT:     equ 0x8100             ; 32 entries of 8 bytes: a type byte then a 7-byte name
MOVE:    equ 0x8400             ; 512 bytes moved up and down by LDIR/LDDR
COLBUF:  equ 0x8800             ; 64 bytes: the read-back column

        org 0
        jp start
LOOPS:  dw 1                    ; patched by the benchmark
        ds 0x38 - $
isr:
        push af
        push bc
        push hl
        ld hl, (TICKS)
        inc hl
        ld (TICKS), hl
        ld hl, KEYS
        ld a, 0xFE              ; group 0 (active low)
        ld b, 7
scan:
        out (1), a
        ld c, a
        in a, (1)
        ld (hl), a
        inc hl
        ld a, c
        rlca
        djnz scan
        ld a, 0xFF
        out (1), a
        ld a, 0x08              ; acknowledge the timer ...
        out (3), a
        ld a, 0x0A              ; ... and enable it again
        out (3), a
        pop hl
        pop bc
        pop af
        ei
        ret

start:
        di
        ld sp, 0
        ld ix, 0                ; (the two cores power on with different IX/IY)
        ld iy, 0
        im 1
        ld hl, (LOOPS)
        ld (COUNT), hl
        ld hl, 0
        ld (TICKS), hl
        ld (FOUND), hl
        xor a
        ld (DONE), a
        ld (SEED), a
        ld a, 0x12
        out (4), a
        ld a, 0x08
        out (3), a
        ld a, 0x0A
        out (3), a
        ld a, 0x01              ; LCD: 8-bit words, X auto-increment, display on
        call lcd_cmd
        ld a, 0x05
        call lcd_cmd
        ld a, 0x03
        call lcd_cmd
        call make_vat
        ld hl, name_init
        ld de, NAME
        ld bc, 7
        ldir
        ei

pass:
        call rom_pages
        call lcd_columns
        call bcd
        call vat_search
        ld hl, (COUNT)
        dec hl
        ld (COUNT), hl
        ld a, h
        or l
        jr nz, pass
        di
        ; Clear the stack's leftovers: the interrupts pushed AF from anywhere in the main
        ; loop, and the peer core of the benchmark does not model F's undocumented bits.
        ld hl, 0xFF00
        ld de, 0xFF01
        ld bc, 0xFF
        ld (hl), 0
        ldir
        ld a, 0xA5
        ld (DONE), a
        halt

; ------------------------------------------------------------------ ROM paging
rom_pages:
        ld de, 0
        ld c, 1
rp_page:
        ld a, c
        or 0x88                 ; TI-83-style port 02h: RAM page 1 stays at 8000h
        out (2), a
        ld hl, 0x4000
        ld a, (SEED)
        ld l, a                 ; a different 256-byte window each pass
        ld b, 0
rp_byte:
        ld a, (hl)
        add a, e
        ld e, a
        jr nc, rp_nc
        inc d
rp_nc:
        inc hl
        djnz rp_byte
        inc c
        ld a, c
        cp 8
        jr nz, rp_page
        ld a, 0x88
        out (2), a
        ld (ROMSUM), de
        ret

; ------------------------------------------------------------------ LCD
; A command, then enough delay for the driver's busy time (>= 60 T-states per access).
lcd_cmd:
        out (0x10), a
lcd_wait:
        ex (sp), hl
        ex (sp), hl
        ret

lcd_columns:
        ld a, (SEED)
        inc a
        ld (SEED), a
        ld c, 0                 ; column
lc_col:
        ld a, c
        or 0x20                 ; Y = column
        call lcd_cmd
        ld a, 0x80              ; X = row 0
        call lcd_cmd
        ld a, (SEED)
        add a, c
        ld l, a
        ld b, 64
lc_row:
        ld a, l                 ; the byte: a rotating pattern
        rlca
        xor c
        ld l, a
        out (0x11), a
        ex (sp), hl
        ex (sp), hl
        djnz lc_row
        inc c
        ld a, c
        cp 12
        jr nz, lc_col
        ; read back column 11 (its bytes are still recomputable: sum them as written)
        ld a, 0x20 + 11
        call lcd_cmd
        ld a, 0x80
        call lcd_cmd
        in a, (0x11)            ; dummy read (loads the latch)
        call lcd_wait
        ld hl, COLBUF
        ld de, 0
        ld b, 64
lc_read:
        in a, (0x11)
        ld (hl), a
        inc hl
        add a, e
        ld e, a
        jr nc, lc_rnc
        inc d
lc_rnc:
        ex (sp), hl
        ex (sp), hl
        djnz lc_read
        ld (RSUM), de
        ; the written sum of column 11, recomputed the same way
        ld a, (SEED)
        add a, 11
        ld l, a
        ld de, 0
        ld b, 64
lc_w:
        ld a, l
        rlca
        xor 11
        ld l, a
        add a, e
        ld e, a
        jr nc, lc_wnc
        inc d
lc_wnc:
        djnz lc_w
        ld (WSUM), de
        ret

; ------------------------------------------------------------------ BCD arithmetic
; BCD2 += BCD1 (8 bytes, least significant last) 64 times, then shift BCD1 left one digit
; with RLD (mantissa normalisation).
bcd:
        ld b, 64
bcd_add:
        push bc
        ld hl, BCD1 + 7
        ld de, BCD2 + 7
        ld b, 8
        or a
bcd_byte:
        ld a, (de)
        adc a, (hl)
        daa
        ld (de), a
        dec hl
        dec de
        djnz bcd_byte
        pop bc
        djnz bcd_add
        ld hl, BCD1 + 7
        ld b, 8
        xor a
bcd_shift:
        rld
        dec hl
        djnz bcd_shift
        ld a, (BCD1 + 7)
        or 0x01                 ; keep it non-zero
        ld (BCD1 + 7), a
        ret

; ------------------------------------------------------------------ VAT
; 32 entries: type (5 = program), name "PRGnn" padded with zeros.
make_vat:
        ld hl, VAT
        ld c, 0
mv_entry:
        ld (hl), 5
        inc hl
        ld (hl), 'P'
        inc hl
        ld (hl), 'R'
        inc hl
        ld (hl), 'G'
        inc hl
        ld a, c
        rrca
        rrca
        rrca
        rrca
        and 0x0F
        add a, '0'
        ld (hl), a
        inc hl
        ld a, c
        and 0x0F
        add a, '0'
        ld (hl), a
        inc hl
        ld (hl), 0
        inc hl
        ld (hl), 0
        inc hl
        inc c
        ld a, c
        cp 32
        jr nz, mv_entry
        ld hl, 0x0123
        ld (BCD1 + 6), hl
        ret

; Looks up PRG00 ... PRG1F (and one missing name per pass): CPIR finds a candidate type
; byte, a compare loop checks the name. Then a 512-byte LDIR/LDDR move.
vat_search:
        ld c, 0
vs_name:
        ld a, c
        rrca
        rrca
        rrca
        rrca
        and 0x0F
        add a, '0'
        ld (NAME + 3), a
        ld a, c
        and 0x0F
        add a, '0'
        ld (NAME + 4), a
        push bc
        ld hl, VAT
        ld bc, 32 * 8
vs_next:
        ld a, 5
        cpir
        jr nz, vs_miss
        push hl
        push bc
        ld de, NAME
        ld b, 7
vs_cmp:
        ld a, (de)
        cp (hl)
        jr nz, vs_ne
        inc hl
        inc de
        djnz vs_cmp
vs_ne:
        pop bc
        pop hl
        jr nz, vs_next
        ld hl, (FOUND)
        inc hl
        ld (FOUND), hl
vs_miss:
        pop bc
        inc c
        ld a, c
        cp 33
        jr nz, vs_name
        ld hl, VAT
        ld de, MOVE
        ld bc, 256
        ldir
        ld hl, MOVE + 255
        ld de, MOVE + 511
        ld bc, 256
        lddr
        ret

name_init:
        db 'P', 'R', 'G', '0', '0', 0, 0
