/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_TEST_LIST_H
#define RDMASCN_TEST_LIST_H

/*
 * Every unit test, once.  X(group, name) is TEST(group, name) in
 * test_<group>.c; `unit_runner group.name` runs it in a process of its
 * own, and CTest knows it as unit.group.name (tests/CMakeLists.txt reads
 * the X( lines below, one a line, and builds test_<group>.c for each
 * group).
 */
#define RS_UNIT_TESTS(X)                                                  \
	X(value, shapes)                                                  \
	X(value, oom_is_sticky)                                           \
	X(value, escape)                                                  \
	X(value, many_reporters)                                          \
	X(literal, hex_forms)                                             \
	X(literal, hex_errors)                                            \
	X(literal, path_and_load)                                         \
	X(literal, first_diff)                                            \
	X(load, register)                                                 \
	X(load, valid_and_plan)                                           \
	X(load, errors)                                                   \
	X(load, outside_values)                                           \
	X(load, duplicate_names_first)                                    \
	X(load, missing_id_once)                                          \
	X(load, deterministic)                                            \
	X(load, int_scalars)                                              \
	X(load, sealed)                                                   \
	X(load, param_uses_param)                                         \
	X(load, param_loop)                                               \
	X(count, elements_pair)                                           \
	X(count, shared_and_one)                                          \
	X(count, steps_lists_after)                                       \
	X(count, params)                                                  \
	X(count, errors)                                                  \
	X(count, parse)                                                   \
	X(count, big)                                                     \
	X(count, graph_folded)                                            \
	X(flow_mask, rule_numbers)                                        \
	X(flow_mask, rule_widths)                                         \
	X(flow_mask, prepare_eth)                                         \
	X(flow_mask, prepare_errors)                                      \
	X(flow_mask, loaded)                                              \
	X(flow_mask, parse)                                               \
	X(flow_attr, eth_ipv4_udp)                                        \
	X(flow_attr, vxlan_inner_tcp)                                     \
	X(flow_attr, other_headers)                                       \
	X(flow_attr, errors)                                              \
	X(devices, text_summary)                                          \
	X(devices, text_all)                                              \
	X(counters, deltas)                                               \
	X(counters, lifespan)                                             \
	X(counters, missing)                                              \
	X(counters, alloc_fails)                                          \
	X(counters, error_names)                                          \
	X(leaks, devices)                                                 \
	X(leaks, qps)                                                     \
	X(leaks, mr_pd)                                                   \
	X(leaks, errors)                                                  \
	X(qp_counters, requests)                                          \
	X(qp_counters, parse_bind)                                        \
	X(qp_counters, parse_get)                                         \
	X(qp_counters, parse_mode_and_errors)                             \
	X(qp_counters, find)                                              \
	X(qp_counters, delta)                                             \
	X(qp_counters, no_binding)                                        \
	X(idmap, alloc_fails)                                             \
	X(idmap, small)                                                   \
	X(idmap, many)                                                    \
	X(idmap, stride)                                                  \
	X(pattern, every_pair_in_order)                                   \
	X(pattern, big_mesh)                                              \
	X(pattern, refused)                                               \
	X(launcher, find_first_set)                                       \
	X(launcher, whole_and_names)                                      \
	X(suggest, distance)                                              \
	X(suggest, remedy)                                                \
	X(peer, fill)                                                     \
	X(peer, mtu)                                                      \
	X(peer, av)                                                       \
	X(peer, describe)                                                 \
	X(peer, uniform)                                                   \
	X(run, dry_run_reporters)                                         \
	X(run, reporter_missing)                                          \
	X(run, invalid_cell)                                              \
	X(run, role_pick)                                                 \
	X(plugin, load_unload)                                            \
	X(plugin, file_abi)                                               \
	X(plugin, other_abi_refused)                                      \
	X(alloc, env)                                                     \
	X(alloc, fail_at)                                                 \
	X(alloc, validate_each)                                           \
	X(alloc, plan_each)                                               \
	X(alloc, dry_run_each)                                            \
	X(alloc, bad_each)                                                \
	X(completions, route_to_owner)                                    \
	X(completions, route_recv_per_wr)                                 \
	X(completions, route_unknown_wr_id)                               \
	X(completions, route_error_status)                                \
	X(completions, route_expected_error)                              \
	X(completions, window_depth)                                      \
	X(completions, window_post_list)                                  \
	X(completions, window_post_fails)                                 \
	X(completions, window_stops_at_error)                             \
	X(completions, route_wc_mismatch)                                 \
	X(wc, grh_ipv4_mapped)                                            \
	X(wc, grh_ipv6_and_neither)                                       \
	X(wc, check_fields)                                               \
	X(wc, check_unread_and_ex_only)                                   \
	X(wc, check_grh)                                                  \
	X(wc, seen_record)                                                \
	X(wc, check_timestamps_increase)                                  \
	X(wr, split_arithmetic)                                           \
	X(wr, split_at_step_max)                                          \
	X(wr, split_at_port_max)                                          \
	X(wr, sge_list_stride_wr_id)                                      \
	X(wr, sge_over_max_send_sge)                                      \
	X(wr, recv_pool_stride_wr_id)                                     \
	X(gates, within)                                                  \
	X(gates, missed)                                                  \
	X(gates, samples)                                                 \
	X(gates, shown)                                                   \
	X(gates, each)                                                    \
	X(gate_counters, held)                                            \
	X(gate_counters, missed)                                          \
	X(gate_counters, not_measured)                                    \
	X(gate_counters, run_gates)                                       \
	X(gate_counters, equals_param)                                    \
	X(gate_counters, run_gates_shown)                                 \
	X(gate_counters, requires_lookup)                                 \
	X(stragglers, median)                                             \
	X(stragglers, latency)                                            \
	X(stragglers, ties_and_direction)                                 \
	X(stragglers, fewer_than_three)                                   \
	X(stragglers, across_nodes)                                       \
	X(stragglers, alloc_fails)                                        \
	X(expect, read_and_handed_over)                                   \
	X(facts, expr_precedence)                                         \
	X(facts, expr_range)                                              \
	X(facts, expr_errors)                                             \
	X(facts, table)                                                   \
	X(facts, ids_and_flags)                                           \
	X(facts, mlx5_described)                                          \
	X(facts, requires_bounds)                                         \
	X(facts, reload)                                                  \
	X(facets, device_and_pd)                                          \
	X(facets, memory_queues_links)                                    \
	X(facets, qp_and_steps_tables)                                    \
	X(facets, any_kind_offering_them)                                 \
	X(graph, run_outcomes)                                            \
	X(graph, cell_file)                                               \
	X(dmabuf, make)                                                   \
	X(devx, alloc_pd)                                                 \
	X(devx, devx_set_agrees)                                          \
	X(devx, create_cq)                                                \
	X(devx, flow_table_destroy_derived)                               \
	X(devx, fte_destinations)                                         \
	X(devx, errors)                                                   \
	X(devx, wide_values)                                              \
	X(devx, every_field_as_devx_set)                                  \
	X(devx, commands_listed)                                          \
	X(devx, device_description)                                       \
	X(devx, hex_round_trip)                                           \
	X(rdv, frames_byte_by_byte)                                       \
	X(rdv, bad_frames_refused)                                        \
	X(rdv, exchange_more)                                             \
	X(rdv, blobs)                                                     \
	X(rdv, worst)                                                     \
	X(rdv, one_node)                                                  \
	X(mlx5_enc, pp_readme)                                            \
	X(mlx5_enc, pp_fields)                                            \
	X(mlx5_enc, pp_errors)                                            \
	X(mlx5_enc, match_value)                                          \
	X(mlx5_enc, match_errors)                                         \
	X(mlx5_enc, create_cq_umem)                                       \
	X(mlx5qp, dci_attr)                                               \
	X(mlx5qp, dct_attr_and_states)                                    \
	X(mlx5qp, cap_defaults_like_qps)                                  \
	X(mlx5qp, raw_packet_flags)                                       \
	X(mlx5qp, rc_waits_for_a_connection)                              \
	X(mlx5qp, comp_mask_names)                                        \
	X(mlx5mkey, entries_and_max_entries)                              \
	X(mlx5mkey, inline_need_is_rdma_cores_bound)                      \
	X(mlx5mkey, length_and_span)                                      \
	X(mlx5mkey, entries_as_the_device_takes_them)                     \
	X(mlx5mkey, qp_asks_for_the_umr_room)                             \
	X(wire, percent)                                                  \
	X(wire, time)                                                     \
	X(wire, transport_timeout)                                        \
	X(wire, reach)                                                    \
	X(explore, axis_forms)                                            \
	X(explore, knee_within_budget)                                    \
	X(explore, knee_past_budget)                                      \
	X(explore, knee_repeat_median)                                    \
	X(explore, boundary_and_shrink)                                   \
	X(explore, anneal_seeded)

#define TEST(group, name) void test_##group##_##name(void)

#define X(group, name) TEST(group, name);
RS_UNIT_TESTS(X)
#undef X

#endif
