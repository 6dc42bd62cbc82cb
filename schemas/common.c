// SPDX-License-Identifier: MIT
#include "schema.h"

const cyaml_schema_value_t rs_id_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, RS_ID_MAX),
};

