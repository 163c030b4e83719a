pub mod systolic;
