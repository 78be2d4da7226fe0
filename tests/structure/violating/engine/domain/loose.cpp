// A source directly in engine/domain/ belongs to no subject: the layering check must refuse it.
