// SPDX-License-Identifier: MIT
/*
 * static_rate, as connections and AHs spell it: the Gb/s of the
 * IBV_RATE_*_GBPS names ("2.5", "100"), or "max" (IBV_RATE_MAX, no
 * limit), rather than the enum's numbers, which are in no order (16 is
 * IBV_RATE_100_GBPS, 14 IBV_RATE_168_GBPS) and which a user of
 * ibv_devinfo, which prints speeds in Gb/s, would not guess.
 */
#include <infiniband/verbs.h>

#include "kinds.h"

const cyaml_strval_t rs_rate_names[RS_N_RATES] = {
	{ "max", IBV_RATE_MAX },
	{ "2.5", IBV_RATE_2_5_GBPS }, { "5", IBV_RATE_5_GBPS },
	{ "10", IBV_RATE_10_GBPS }, { "14", IBV_RATE_14_GBPS },
	{ "20", IBV_RATE_20_GBPS }, { "25", IBV_RATE_25_GBPS },
	{ "28", IBV_RATE_28_GBPS }, { "30", IBV_RATE_30_GBPS },
	{ "40", IBV_RATE_40_GBPS }, { "50", IBV_RATE_50_GBPS },
	{ "56", IBV_RATE_56_GBPS }, { "60", IBV_RATE_60_GBPS },
	{ "80", IBV_RATE_80_GBPS }, { "100", IBV_RATE_100_GBPS },
	{ "112", IBV_RATE_112_GBPS }, { "120", IBV_RATE_120_GBPS },
	{ "168", IBV_RATE_168_GBPS }, { "200", IBV_RATE_200_GBPS },
	{ "300", IBV_RATE_300_GBPS }, { "400", IBV_RATE_400_GBPS },
	{ "600", IBV_RATE_600_GBPS }, { "800", IBV_RATE_800_GBPS },
	{ "1200", IBV_RATE_1200_GBPS },
};

const char *rs_rate_name(int rate)
{
	for (size_t i = 0; i < RS_N_RATES; i++)
		if (rs_rate_names[i].val == rate)
			return rs_rate_names[i].str;
	return "?";
}
