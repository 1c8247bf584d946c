//! A number in a constraint, kept as written: integers stay integers.

use std::cmp::Ordering;
use std::fmt;

/// A number in a constraint (a bound such as `minimum = 1`, or a step), as
/// written: integers stay integers, so `u64::MAX` and `i64::MIN` are exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberBound {
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A number with a fraction or exponent.
    Float(f64),
}

impl NumberBound {
    /// How the number compares with the integer `other`; floats compare
    /// as floats.
    pub(crate) fn cmp_signed(self, other: i128) -> Ordering {
        match self {
            NumberBound::Int(n) => i128::from(n).cmp(&other),
            NumberBound::UInt(n) => i128::from(n).cmp(&other),
            NumberBound::Float(n) => n.partial_cmp(&(other as f64)).unwrap_or(Ordering::Equal),
        }
    }

    /// How the number compares with the non-negative integer `other`.
    pub(crate) fn cmp_unsigned(self, other: u128) -> Ordering {
        match self {
            NumberBound::Int(n) => match u128::try_from(n) {
                Ok(n) => n.cmp(&other),
                Err(_) => Ordering::Less,
            },
            NumberBound::UInt(n) => u128::from(n).cmp(&other),
            NumberBound::Float(n) => n.partial_cmp(&(other as f64)).unwrap_or(Ordering::Equal),
        }
    }
}

impl fmt::Display for NumberBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberBound::Int(n) => write!(f, "{n}"),
            NumberBound::UInt(n) => write!(f, "{n}"),
            NumberBound::Float(n) => write!(f, "{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_compare_exactly_with_a_range() {
        use Ordering::*;
        assert_eq!(
            NumberBound::Int(i64::MIN).cmp_signed(i128::from(i64::MIN)),
            Equal
        );
        assert_eq!(NumberBound::Int(-129).cmp_signed(-128), Less);
        assert_eq!(NumberBound::UInt(0).cmp_signed(-128), Greater);
        assert_eq!(NumberBound::Float(-0.5).cmp_signed(0), Less);
        assert_eq!(
            NumberBound::UInt(u64::MAX).cmp_unsigned(u128::from(u64::MAX)),
            Equal
        );
        assert_eq!(NumberBound::UInt(256).cmp_unsigned(255), Greater);
        assert_eq!(NumberBound::Int(-1).cmp_unsigned(0), Less);
        assert_eq!(NumberBound::Int(3).cmp_unsigned(2), Greater);
        assert_eq!(NumberBound::Float(255.0).cmp_unsigned(255), Equal);
    }

    #[test]
    fn numbers_read_as_written() {
        assert_eq!(NumberBound::Int(-3).to_string(), "-3");
        assert_eq!(NumberBound::UInt(1440).to_string(), "1440");
        assert_eq!(NumberBound::Float(0.5).to_string(), "0.5");
    }
}
