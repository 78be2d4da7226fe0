// A subject folder that cmake/layering.cmake does not declare: the layering check must refuse it.
