package server

import (
	"errors"
	"net/http"
	"reflect"
	"sort"
	"strings"

	"github.com/go-playground/validator/v10"
)

// validate is the one validator instance: it is safe for concurrent use and
// caches struct metadata. Errors name fields by their JSON names.
var validate = func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	return v
}()

// validStruct checks v's `validate` tags and turns failures into a 400
// listing each problem, e.g. `matchId: is required`.
func validStruct(v any) error {
	err := validate.Struct(v)
	if err == nil {
		return nil
	}
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) {
		return errorf(http.StatusBadRequest, "invalid request: %v", err)
	}
	problems := make([]string, 0, len(ves))
	for _, fe := range ves {
		problems = append(problems, fe.Namespace()[strings.IndexByte(fe.Namespace(), '.')+1:]+": "+describe(fe))
	}
	sort.Strings(problems)
	return errorf(http.StatusBadRequest, "invalid request: %s", strings.Join(problems, "; "))
}

func describe(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "oneof":
		return "must be one of " + fe.Param()
	case "max":
		return "must be at most " + fe.Param() + " long"
	case "min":
		return "must be at least " + fe.Param()
	}
	return "fails " + fe.Tag()
}
