// SPDX-License-Identifier: MIT
#include "schema.h"

const cyaml_schema_value_t rs_id_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, RS_ID_MAX),
};


void rs_schema_int_range(const cyaml_schema_value_t *v, int64_t *ret_min,
			 uint64_t *ret_max)
{
	unsigned bits = v->data_size >= 1 && v->data_size <= 8 ?
			v->data_size * 8 : 64;

	if (v->type == CYAML_UINT) {
		*ret_min = 0;
		*ret_max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	} else {
		*ret_max = (UINT64_C(1) << (bits - 1)) - 1;
		*ret_min = -(int64_t)*ret_max - 1;
	}
}
