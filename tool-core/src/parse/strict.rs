//! A thin deserializer wrapper that makes serde's structs as strict as their
//! schema: a struct is read from a JSON object only.
//!
//! serde's derived `Deserialize` also accepts a struct written as an array of
//! its fields in declaration order (`["Main St 1", "Berlin"]`). A model that
//! lists values in another order would fill the wrong fields without an
//! error, and the schema the model was given says `object`. The wrapper
//! forwards every call to the real deserializer and wraps every nested
//! visitor, so the rule holds at any depth; it keeps no state, so it costs
//! next to nothing once inlined.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

/// Deserializes a `T` with structs restricted to JSON objects.
pub(crate) struct StrictSeed<T>(pub PhantomData<T>);

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for StrictSeed<T> {
    type Value = T;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize(Strict(deserializer))
    }
}

/// Wraps a seed so that what it deserializes goes through [`Strict`].
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(deserializer))
    }
}

struct Strict<D>(D);

macro_rules! forward {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Wrap(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap(visitor))
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap(visitor))
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap(visitor))
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Wrap(visitor))
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, ObjectOnly(visitor))
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, Wrap(visitor))
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Forwards a visitor's scalar calls and wraps the accessors of nested values.
struct Wrap<V>(V);

/// Like [`Wrap`], for a struct: refuses to read it from an array.
struct ObjectOnly<V>(V);

macro_rules! forward_visits {
    () => {
        #[inline]
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.expecting(f)
        }
        #[inline]
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            self.0.visit_bool(v)
        }
        #[inline]
        fn visit_i8<E: de::Error>(self, v: i8) -> Result<Self::Value, E> {
            self.0.visit_i8(v)
        }
        #[inline]
        fn visit_i16<E: de::Error>(self, v: i16) -> Result<Self::Value, E> {
            self.0.visit_i16(v)
        }
        #[inline]
        fn visit_i32<E: de::Error>(self, v: i32) -> Result<Self::Value, E> {
            self.0.visit_i32(v)
        }
        #[inline]
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            self.0.visit_i64(v)
        }
        #[inline]
        fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
            self.0.visit_i128(v)
        }
        #[inline]
        fn visit_u8<E: de::Error>(self, v: u8) -> Result<Self::Value, E> {
            self.0.visit_u8(v)
        }
        #[inline]
        fn visit_u16<E: de::Error>(self, v: u16) -> Result<Self::Value, E> {
            self.0.visit_u16(v)
        }
        #[inline]
        fn visit_u32<E: de::Error>(self, v: u32) -> Result<Self::Value, E> {
            self.0.visit_u32(v)
        }
        #[inline]
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            self.0.visit_u64(v)
        }
        #[inline]
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
            self.0.visit_u128(v)
        }
        #[inline]
        fn visit_f32<E: de::Error>(self, v: f32) -> Result<Self::Value, E> {
            self.0.visit_f32(v)
        }
        #[inline]
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            self.0.visit_f64(v)
        }
        #[inline]
        fn visit_char<E: de::Error>(self, v: char) -> Result<Self::Value, E> {
            self.0.visit_char(v)
        }
        #[inline]
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            self.0.visit_str(v)
        }
        #[inline]
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            self.0.visit_borrowed_str(v)
        }
        #[inline]
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            self.0.visit_string(v)
        }
        #[inline]
        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
            self.0.visit_bytes(v)
        }
        #[inline]
        fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
            self.0.visit_borrowed_bytes(v)
        }
        #[inline]
        fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
            self.0.visit_byte_buf(v)
        }
        #[inline]
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.visit_none()
        }
        #[inline]
        fn visit_some<D: Deserializer<'de>>(
            self,
            deserializer: D,
        ) -> Result<Self::Value, D::Error> {
            self.0.visit_some(Strict(deserializer))
        }
        #[inline]
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.visit_unit()
        }
        #[inline]
        fn visit_newtype_struct<D: Deserializer<'de>>(
            self,
            deserializer: D,
        ) -> Result<Self::Value, D::Error> {
            self.0.visit_newtype_struct(Strict(deserializer))
        }
        #[inline]
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            self.0.visit_map(Map(map))
        }
        #[inline]
        fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
            self.0.visit_enum(Enum(data))
        }
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    forward_visits!();

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.0.visit_seq(Seq(seq))
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for ObjectOnly<V> {
    type Value = V::Value;

    forward_visits!();

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(de::Error::invalid_type(Unexpected::Seq, &self))
    }
}

struct Map<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Map<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct Seq<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct Enum<A>(A);

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Enum<A> {
    type Error = A::Error;
    type Variant = Variant<A::Variant>;

    #[inline]
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Seed(seed))?;
        Ok((value, Variant(variant)))
    }
}

struct Variant<A>(A);

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Variant<A> {
    type Error = A::Error;

    #[inline]
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    #[inline]
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(visitor))
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, ObjectOnly(visitor))
    }
}
