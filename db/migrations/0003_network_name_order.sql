-- Networks in name order: the filter list (spec §4 name-sorted list) and the
-- offers search sorted by network, which walks networks in this order.
CREATE INDEX networks_name_sort_idx ON networks (lower(name), id);
