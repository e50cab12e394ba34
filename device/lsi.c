/*
 * lsi.c - the ISA tables (names, operand formats, property bits), generated
 * from device/isa.def. Holds data only: no behaviour, and no second list of
 * opcodes.
 */
#include "device/lsi.h"

const char *const lsi_op_name[LSI_NUM_OPS] = {
#define LSI_OP(name, fmt, flags, sem) [LSI_##name] = #name,
#include "device/isa.def"
#undef LSI_OP
};

const uint8_t lsi_op_format[LSI_NUM_OPS] = {
#define LSI_OP(name, fmt, flags, sem) [LSI_##name] = fmt,
#include "device/isa.def"
#undef LSI_OP
};

const uint8_t lsi_op_flags[LSI_NUM_OPS] = {
#define LSI_OP(name, fmt, flags, sem) [LSI_##name] = (flags),
#include "device/isa.def"
#undef LSI_OP
};
