// A source directly in engine/ belongs to no layer: the layering check must refuse it.
