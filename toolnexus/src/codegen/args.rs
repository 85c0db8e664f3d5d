//! `Deserialize` for the argument struct `#[tool]` generates, as a declarative macro.
//!
//! The struct is the tool's parameters as fields, with `deny_unknown_fields` semantics and no
//! other serde attribute. `#[derive(Deserialize)]` would be correct but costly: serde_derive runs
//! (built in debug, like every proc macro) for each tool, and emits a field enum, its visitor and
//! a sequence visitor per tool. Here each tool gets one `visit_map`; reading a key is one shared
//! [`FieldKey`], and a missing field one shared [`missing`] per field type.
//!
//! What a model sees is what the derive gives: `unknown field `x`, expected `a` or `b``
//! (raised while the key is read, so serde_json places it after the key), `duplicate field `a``
//! (before its second value is read), `missing field `a`` (after the object), and `None` for an
//! absent `Option`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};

/// `impl Deserialize` for a generated argument struct: `$ty` and its type parameters (each
/// bounded by `Deserialize`), then `index field "key": Type` per field, in declaration order.
#[doc(hidden)]
#[macro_export]
macro_rules! __toolnexus_impl_args {
    ($ty:ident [$($param:ident),*] { $($index:literal $field:ident $key:literal : $fty:ty),* }) => {
        impl<'de, $($param: $crate::__private::serde::Deserialize<'de>),*>
            $crate::__private::serde::Deserialize<'de> for $ty<$($param),*>
        {
            fn deserialize<__D>(deserializer: __D) -> ::core::result::Result<Self, __D::Error>
            where
                __D: $crate::__private::serde::Deserializer<'de>,
            {
                use $crate::__private::serde::de::Error as _;
                const __TOOLNEXUS_FIELDS: &[&str] = &[$($key),*];
                struct __ToolnexusArgs<$($param),*>(::core::marker::PhantomData<fn() -> $ty<$($param),*>>);
                impl<'de, $($param: $crate::__private::serde::Deserialize<'de>),*>
                    $crate::__private::serde::de::Visitor<'de> for __ToolnexusArgs<$($param),*>
                {
                    type Value = $ty<$($param),*>;

                    fn expecting(
                        &self,
                        f: &mut ::core::fmt::Formatter<'_>,
                    ) -> ::core::fmt::Result {
                        f.write_str("an object of arguments")
                    }

                    #[inline]
                    fn visit_map<__A>(self, mut map: __A) -> ::core::result::Result<Self::Value, __A::Error>
                    where
                        __A: $crate::__private::serde::de::MapAccess<'de>,
                    {
                        $(let mut $field: ::core::option::Option<$fty> = ::core::option::Option::None;)*
                        while let ::core::option::Option::Some(index) =
                            map.next_key_seed($crate::__private::FieldKey(__TOOLNEXUS_FIELDS))?
                        {
                            match index {
                                $($index => {
                                    if $field.is_some() {
                                        return ::core::result::Result::Err(__A::Error::duplicate_field($key));
                                    }
                                    $field = ::core::option::Option::Some(map.next_value()?);
                                })*
                                // `FieldKey` gives only the indices above.
                                _ => return ::core::result::Result::Err(__A::Error::custom("no such field")),
                            }
                        }
                        ::core::result::Result::Ok($ty {
                            $($field: match $field {
                                ::core::option::Option::Some(value) => value,
                                ::core::option::Option::None => $crate::__private::missing::<_, __A::Error>($key)?,
                            }),*
                        })
                    }
                }
                deserializer.deserialize_struct(
                    ::core::stringify!($ty),
                    __TOOLNEXUS_FIELDS,
                    __ToolnexusArgs(::core::marker::PhantomData),
                )
            }
        }
    };
}

/// Reads a key of a generated argument struct: the index of its field, or serde's
/// `unknown field` error naming the fields there are. One for every tool.
#[derive(Debug)]
pub struct FieldKey(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldKey {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldKey {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        match position(self.0, key.as_bytes()) {
            Some(index) => Ok(index),
            None => Err(E::unknown_field(key, self.0)),
        }
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<usize, E> {
        match position(self.0, key) {
            Some(index) => Ok(index),
            None => Err(E::unknown_field(&String::from_utf8_lossy(key), self.0)),
        }
    }
}

/// The index of `key` among `fields`. Keys are short names: comparing their bytes in place
/// costs less than a `memcmp` call per field of the same length.
fn position(fields: &[&str], key: &[u8]) -> Option<usize> {
    fields.iter().position(|field| {
        let field = field.as_bytes();
        field.len() == key.len() && field.iter().zip(key).all(|(a, b)| a == b)
    })
}

/// The value of a field the object did not have: `None` for an `Option`, serde's
/// `missing field` error for anything else (as `#[derive(Deserialize)]` does).
pub fn missing<'de, T: de::Deserialize<'de>, E: de::Error>(field: &'static str) -> Result<T, E> {
    T::deserialize(Missing(field, PhantomData))
}

/// The deserializer of an absent field: an `Option` reads `None`, anything else fails.
struct Missing<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    //! `impl_args!` against `#[derive(Deserialize)]` with `deny_unknown_fields`, on the same
    //! fields: every object gives the same value, or the same error at the same place.

    use serde::Deserialize;

    #[allow(non_camel_case_types, dead_code)]
    #[derive(Debug, PartialEq)]
    struct Ours<P0> {
        city: String,
        days: Option<u8>,
        r#type: Vec<i64>,
        extra: P0,
    }
    crate::__toolnexus_impl_args!(Ours [P0] {
        0 city "city": String, 1 days "days": Option<u8>, 2 r#type "type": Vec<i64>, 3 extra "extra": P0
    });

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Derived<P0> {
        city: String,
        days: Option<u8>,
        r#type: Vec<i64>,
        extra: P0,
    }

    /// The same outcome: equal fields, or the same message (with serde_json's position).
    fn same<P0>(text: &str)
    where
        P0: for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
    {
        let ours = serde_json::from_str::<Ours<P0>>(text);
        let derived = serde_json::from_str::<Derived<P0>>(text);
        match (ours, derived) {
            (Ok(o), Ok(d)) => {
                assert_eq!(
                    (o.city, o.days, o.r#type, o.extra),
                    (d.city, d.days, d.r#type, d.extra),
                    "{text}"
                );
            }
            (Err(o), Err(d)) => assert_eq!(o.to_string(), d.to_string(), "{text}"),
            (o, d) => panic!("{text}: ours {o:?}, derived {d:?}"),
        }
        // And from a value (the other way a deserializer reaches the struct).
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            let ours = Ours::<P0>::deserialize(value.clone()).map_err(|e| e.to_string());
            let derived = Derived::<P0>::deserialize(value).map_err(|e| e.to_string());
            assert_eq!(ours.is_ok(), derived.is_ok(), "{text}");
            if let (Err(o), Err(d)) = (ours, derived) {
                assert_eq!(o, d, "{text}");
            }
        }
    }

    #[test]
    fn the_generated_impl_decodes_and_fails_as_the_derive_does() {
        let texts = [
            r#"{"city":"Oslo","days":3,"type":[1,2],"extra":true}"#,
            r#"{"extra":false,"type":[],"city":"Oslo"}"#,
            r#"{"city":"Oslo","type":[],"extra":true,"days":null}"#,
            r#"{"city":"Oslo","type":[],"extra":true,"country":"NO"}"#,
            r#"{"city":"Oslo","city":"Bergen","type":[],"extra":true}"#,
            r#"{"type":[],"extra":true}"#,
            r#"{"city":"Oslo","extra":true}"#,
            r#"{"city":"Oslo","type":[],"days":3}"#,
            r#"{"city":7,"type":[],"extra":true}"#,
            r#"{"city":"Oslo","days":300,"type":[],"extra":true}"#,
            r#"{"city":"Oslo","days":-1,"type":[],"extra":true}"#,
            r#"{"city":"Oslo","type":["x"],"extra":true}"#,
            r#"{"city":"Oslo","type":[],"extra":"yes"}"#,
            r#"{"ci\u0074y":"Oslo","type":[],"extra":true}"#,
            r#"{"":1}"#,
            "{}",
            r#"{"city":"Oslo","type":[],"extra":true"#,
            r#"{"city":"Oslo","type":[],"extra":true}}"#,
            r#"{"city":"Oslo","type":[],"extra":true} x"#,
        ];
        for text in texts {
            same::<bool>(text);
        }
        // Only an object reaches the struct (decode refuses anything else first), so where the
        // derive also reads a struct from an array, the generated impl need not.
        let array = serde_json::from_str::<Ours<bool>>(r#"["Oslo",3,[],true]"#);
        assert_eq!(
            array.unwrap_err().to_string(),
            "invalid type: sequence, expected an object of arguments at line 1 column 1"
        );
        same::<Option<String>>(r#"{"city":"Oslo","type":[]}"#);
        same::<serde_json::Value>(r#"{"city":"Oslo","type":[]}"#);
        same::<serde_json::Value>(r#"{"city":"Oslo","type":[],"extra":{"a":[1]}}"#);
    }
}
