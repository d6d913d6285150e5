//! TI-82 token bytes the runtime interprets (from the token table, `../shared/spec/ti82-tokens.tsv`).
//!
//! Only the values are here; spellings live with the tokenizer in `tifiles`.

#![allow(missing_docs)]

pub const TO_DMS: u8 = 0x01;
pub const TO_DEC: u8 = 0x02;
pub const TO_FRAC: u8 = 0x03;
pub const STORE: u8 = 0x04;
pub const LBRACKET: u8 = 0x06;
pub const RBRACKET: u8 = 0x07;
pub const LBRACE: u8 = 0x08;
pub const RBRACE: u8 = 0x09;
pub const RADIAN_MARK: u8 = 0x0A;
pub const DEGREE_MARK: u8 = 0x0B;
pub const INVERSE: u8 = 0x0C;
pub const SQUARE: u8 = 0x0D;
pub const TRANSPOSE: u8 = 0x0E;
pub const CUBE: u8 = 0x0F;
pub const LPAREN: u8 = 0x10;
pub const RPAREN: u8 = 0x11;
pub const ROUND: u8 = 0x12;
pub const PXL_TEST: u8 = 0x13;
pub const AUGMENT: u8 = 0x14;
pub const ROW_SWAP: u8 = 0x15;
pub const ROW_PLUS: u8 = 0x16;
pub const TIMES_ROW: u8 = 0x17;
pub const TIMES_ROW_PLUS: u8 = 0x18;
pub const MAX: u8 = 0x19;
pub const MIN: u8 = 0x1A;
pub const R_TO_PR: u8 = 0x1B;
pub const P_TO_RY: u8 = 0x1E;
pub const MEDIAN: u8 = 0x1F;
pub const RAND_M: u8 = 0x20;
pub const MEAN: u8 = 0x21;
pub const SEQ: u8 = 0x23;
pub const SPACE: u8 = 0x29;
pub const QUOTE: u8 = 0x2A;
pub const COMMA: u8 = 0x2B;
pub const FACTORIAL: u8 = 0x2D;
pub const DIGIT_0: u8 = 0x30;
pub const DIGIT_9: u8 = 0x39;
pub const DECIMAL_POINT: u8 = 0x3A;
pub const EXP10: u8 = 0x3B;
pub const OR: u8 = 0x3C;
pub const XOR: u8 = 0x3D;
pub const COLON: u8 = 0x3E;
pub const NEWLINE: u8 = 0x3F;
pub const AND: u8 = 0x40;
pub const LETTER_A: u8 = 0x41;
pub const LETTER_Z: u8 = 0x5A;
pub const THETA: u8 = 0x5B;
pub const PREFIX_MATRIX: u8 = 0x5C;
pub const PREFIX_LIST: u8 = 0x5D;
pub const PREFIX_EQUATION: u8 = 0x5E;

/// Whether `k` (after `5Eh`) is a Y-variable this runtime graphs: `Y₁`-`Y₀` (10h-19h),
/// `X₁ᴛ`/`Y₁ᴛ`-`X₆ᴛ`/`Y₆ᴛ` (20h-2Bh), `r₁`-`r₆` (40h-45h), `Uₙ`, `Vₙ` (80h, 81h).
pub fn is_equation(k: u8) -> bool {
    matches!(k, 0x10..=0x19 | 0x20..=0x2B | 0x40..=0x45 | 0x80 | 0x81)
}
pub const PRGM: u8 = 0x5F;
pub const PREFIX_PIC: u8 = 0x60;
pub const PREFIX_GDB: u8 = 0x61;
pub const PREFIX_STAT: u8 = 0x62;
pub const PREFIX_WINDOW: u8 = 0x63;
pub const RADIAN: u8 = 0x64;
pub const DEGREE: u8 = 0x65;
pub const NORMAL: u8 = 0x66;
pub const SCI: u8 = 0x67;
pub const ENG: u8 = 0x68;
pub const FLOAT: u8 = 0x69;
pub const EQ: u8 = 0x6A;
pub const LT: u8 = 0x6B;
pub const GT: u8 = 0x6C;
pub const LE: u8 = 0x6D;
pub const GE: u8 = 0x6E;
pub const NE: u8 = 0x6F;
pub const PLUS: u8 = 0x70;
pub const MINUS: u8 = 0x71;
pub const ANS: u8 = 0x72;
pub const FIX: u8 = 0x73;
pub const FUNC: u8 = 0x76;
pub const SPLIT: u8 = 0x74;
pub const FULL_SCREEN: u8 = 0x75;
pub const PARAM: u8 = 0x77;
pub const POLAR: u8 = 0x78;
/// `Seq`, the graphing mode (not the list function `seq(`).
pub const SEQ_MODE: u8 = 0x79;
pub const PREFIX_FORMAT: u8 = 0x7E;
pub const TIMES: u8 = 0x82;
pub const DIVIDE: u8 = 0x83;
pub const CLR_DRAW: u8 = 0x85;
pub const ZSTANDARD: u8 = 0x86;
pub const ZTRIG: u8 = 0x87;
pub const TRACE: u8 = 0x84;
pub const ZBOX: u8 = 0x88;
pub const ZOOM_IN: u8 = 0x89;
pub const ZOOM_OUT: u8 = 0x8A;
pub const ZINTEGER: u8 = 0x8C;
pub const ZSQUARE: u8 = 0x8B;
pub const ZPREVIOUS: u8 = 0x8D;
pub const ZDECIMAL: u8 = 0x8E;
pub const ZOOM_RCL: u8 = 0x90;
pub const ZOOM_STO: u8 = 0x92;
pub const PRINT_SCREEN: u8 = 0x91;
pub const TEXT: u8 = 0x93;
pub const NPR: u8 = 0x94;
pub const NCR: u8 = 0x95;
pub const FN_ON: u8 = 0x96;
pub const FN_OFF: u8 = 0x97;
pub const STORE_PIC: u8 = 0x98;
pub const RECALL_PIC: u8 = 0x99;
pub const STORE_GDB: u8 = 0x9A;
pub const RECALL_GDB: u8 = 0x9B;
pub const LINE: u8 = 0x9C;
pub const SHADE: u8 = 0xA4;
pub const TANGENT: u8 = 0xA7;
pub const DRAW_INV: u8 = 0xA8;
pub const DRAW_F: u8 = 0xA9;
pub const PLOTS_ON: u8 = 0xE9;
pub const CLR_TABLE: u8 = 0xFB;
pub const INDPNT_AUTO: u8 = 0x7A;
pub const INDPNT_ASK: u8 = 0x7B;
pub const DEPEND_AUTO: u8 = 0x7C;
pub const DEPEND_ASK: u8 = 0x7D;
pub const FORMAT_WEB: u8 = 0x0E;
pub const FORMAT_TIME: u8 = 0x0F;
pub const PLOTS_OFF: u8 = 0xEA;
pub const PLOT1: u8 = 0xEC;
pub const PLOT3: u8 = 0xEE;
pub const ZOOM_STAT: u8 = 0x8F;
/// Stat plot types and marks, arguments of `Plot1(`-`Plot3(`.
pub const BOXPLOT: u8 = 0x05;
pub const HISTOGRAM: u8 = 0xFC;
pub const XY_LINE: u8 = 0xFD;
pub const SCATTER: u8 = 0xFE;
pub const MARK_BOX: u8 = 0x7F;
pub const MARK_CROSS: u8 = 0x80;
pub const MARK_DOT: u8 = 0x81;
pub const VERTICAL: u8 = 0x9D;
pub const PT_ON: u8 = 0x9E;
pub const PT_OFF: u8 = 0x9F;
pub const PT_CHANGE: u8 = 0xA0;
pub const PXL_ON: u8 = 0xA1;
pub const PXL_OFF: u8 = 0xA2;
pub const PXL_CHANGE: u8 = 0xA3;
pub const CIRCLE: u8 = 0xA5;
pub const HORIZONTAL: u8 = 0xA6;
pub const RAND: u8 = 0xAB;
pub const PI: u8 = 0xAC;
pub const GET_KEY: u8 = 0xAD;
/// `'`: minutes in a degrees-minutes-seconds entry.
pub const APOSTROPHE: u8 = 0xAE;
pub const NEGATE: u8 = 0xB0;
pub const INT: u8 = 0xB1;
pub const ABS: u8 = 0xB2;
pub const DET: u8 = 0xB3;
pub const IDENTITY: u8 = 0xB4;
pub const DIM: u8 = 0xB5;
pub const SUM: u8 = 0xB6;
pub const PROD: u8 = 0xB7;
pub const NOT: u8 = 0xB8;
pub const IPART: u8 = 0xB9;
pub const FPART: u8 = 0xBA;
pub const SQRT: u8 = 0xBC;
pub const CBRT: u8 = 0xBD;
pub const LN: u8 = 0xBE;
pub const EXP: u8 = 0xBF;
pub const LOG: u8 = 0xC0;
pub const TEN_POW: u8 = 0xC1;
pub const SIN: u8 = 0xC2;
pub const TANH_INV: u8 = 0xCD;
pub const IF: u8 = 0xCE;
pub const THEN: u8 = 0xCF;
pub const ELSE: u8 = 0xD0;
pub const WHILE: u8 = 0xD1;
pub const REPEAT: u8 = 0xD2;
pub const FOR: u8 = 0xD3;
pub const END: u8 = 0xD4;
pub const RETURN: u8 = 0xD5;
pub const LBL: u8 = 0xD6;
pub const GOTO: u8 = 0xD7;
pub const PAUSE: u8 = 0xD8;
pub const STOP: u8 = 0xD9;
pub const IS_GT: u8 = 0xDA;
pub const DS_LT: u8 = 0xDB;
pub const INPUT: u8 = 0xDC;
pub const PROMPT: u8 = 0xDD;
pub const DISP: u8 = 0xDE;
pub const DISP_GRAPH: u8 = 0xDF;
pub const OUTPUT: u8 = 0xE0;
pub const CLR_HOME: u8 = 0xE1;
pub const FILL: u8 = 0xE2;
pub const SORT_A: u8 = 0xE3;
pub const SORT_D: u8 = 0xE4;
pub const DISP_TABLE: u8 = 0xE5;
pub const MENU: u8 = 0xE6;
pub const SEND: u8 = 0xE7;
pub const GET: u8 = 0xE8;
pub const POWER: u8 = 0xF0;
pub const XROOT: u8 = 0xF1;
pub const CLR_LIST: u8 = 0xFA;

/// Second bytes after [`PREFIX_FORMAT`].
pub const FORMAT_SEQUENTIAL: u8 = 0x00;
pub const FORMAT_SIMUL: u8 = 0x01;
pub const FORMAT_POLAR_GC: u8 = 0x02;
pub const FORMAT_RECT_GC: u8 = 0x03;
pub const FORMAT_COORD_ON: u8 = 0x04;
pub const FORMAT_COORD_OFF: u8 = 0x05;
pub const FORMAT_CONNECTED: u8 = 0x06;
pub const FORMAT_DOT: u8 = 0x07;
pub const FORMAT_AXES_ON: u8 = 0x08;
pub const FORMAT_AXES_OFF: u8 = 0x09;
pub const FORMAT_GRID_ON: u8 = 0x0A;
pub const FORMAT_GRID_OFF: u8 = 0x0B;
pub const FORMAT_LABEL_ON: u8 = 0x0C;
pub const FORMAT_LABEL_OFF: u8 = 0x0D;

/// True for the bytes that are the first half of a two-byte token.
pub fn is_prefix(b: u8) -> bool {
    matches!(b, 0x5C..=0x63 if b != PRGM) || b == PREFIX_FORMAT
}
